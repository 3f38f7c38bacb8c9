"""One Ray session per process, shared by the users of a long-lived server (the dashboard's browser sessions).

    session = RAY.join("alice", None)          # a local Ray with this machine's cores (started once), or
    session = RAY.join("alice", "10.0.0.5:6379")    # the cluster at that address; ValueError in one sentence
    session.status()                           # "Ray 2.60.0, local: 1 node, 2 CPUs"
    RAY.leave("alice")                         # the last user gone: LINGER_S later the local Ray stops
    RAY.leave("alice", now=True)               # ... or at once

Ray is initialised once per process, so a server joins one cluster at a time: users who ask for the same
address (None: the local one) share its session; a user asking for another address while others use the open
one gets a ValueError that names neither address (another user's address may be private), and the session is
switched when nobody else uses it. A session whose cluster went away (RayCompute.gone) is replaced by the next
`join`. Every user is counted once, whatever the number of joins, and `leave` is safe to call twice. The last
user's leave closes the session `linger_s` later, unless someone joins in between: a browser reload leaves and
joins again within a second, and must not restart a local Ray (3-5 s).

Left out on purpose: several clusters at once (Ray's process-wide state).
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from rag_core.text.credentials import mask_secrets

LINGER_S = 60.0


class RaySessions:
    def __init__(self, linger_s: float = LINGER_S):
        self.linger_s = linger_s
        self._lock = threading.Lock()
        self.session = None                        # the open RayCompute, or None
        self.address: str | None = None            # what it was opened for (None: a local Ray)
        self.users: set = set()
        self._closing: threading.Timer | None = None
        # Ray is started and stopped in a thread of its own that lives as long as the process: a local Ray's
        # processes are killed when the thread that started them ends (Linux's parent-death signal is per
        # thread), and a server runs every page in a new thread
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="openbook-ray")

    def join(self, user, address: str | None):
        """The session for `address` (None: a local Ray), opened when needed; `user` counted as using it."""
        address = (address or "").strip() or None
        with self._lock:
            self._cancel_close()
            if self.session is not None and self.session.gone:
                self._close()                       # its cluster went away: this join opens anew
            if self.session is not None and address != self.address:
                if self.users - {user}:
                    self.users.discard(user)        # it asked for another cluster: it no longer uses this one
                    raise ValueError("This server is using another Ray cluster for another browser session, and a "
                                     "server joins one cluster at a time: choose this process until that session "
                                     "ends, or ask who runs the server to set OPENBOOK_RAY_ADDRESS.")
                self._close()
            if self.session is None:
                self.session = self._open(address)
                self.address = address
            self.users.add(user)
            return self.session

    def leave(self, user, now: bool = False) -> None:
        """`user` no longer uses Ray; when nobody does, the session closes `linger_s` later (a local Ray stops),
        or at once with `now` (the user chose to compute in process: nobody will be back in a second)."""
        with self._lock:
            self.users.discard(user)
            if self.users or self.session is None:
                return
            self._cancel_close()
            if now or self.linger_s <= 0:
                self._close()
                return
            self._closing = threading.Timer(self.linger_s, self._close_if_unused)
            self._closing.daemon = True
            self._closing.start()

    def close(self) -> None:
        """Close the session now, whoever uses it (the end of a test, or of the process)."""
        with self._lock:
            self._cancel_close()
            self.users.clear()
            if self.session is not None:
                self._close()

    def _close_if_unused(self) -> None:
        with self._lock:
            if not self.users and self.session is not None:
                self._close()

    def _cancel_close(self) -> None:
        if self._closing is not None:
            self._closing.cancel()
            self._closing = None

    def _open(self, address: str | None):
        from rag_core.retrieval.ray_connect import log_dir
        from rag_core.retrieval.ray_encoder import RayCompute      # ray is imported only now
        try:
            return self._thread.submit(RayCompute, address).result()
        except ValueError:
            raise
        except Exception as e:                   # Ray's own failure to start or join: one sentence, masked
            first = str(e).strip().splitlines()[0] if str(e).strip() else "no reason given"
            raise ValueError(mask_secrets(f"Ray did not start ({type(e).__name__}: {first[:200]}): see its logs in "
                                          f"{log_dir()}.")) from None

    def _close(self) -> None:
        session, self.session, self.address = self.session, None, None
        try:
            self._thread.submit(session.close).result()
        except Exception:                        # a cluster already gone has nothing left to close
            pass


RAY = RaySessions()          # the process's
