"""The server's memory, handed back to the system when what used it is gone: a released upload's Workbench, and a
browser session that has ended.

A session ends when its tab disconnects and does not come back within GRACE_S seconds (a network blip reconnects
sooner). Streamlit itself keeps a disconnected session, with its session state and its uploaded files, for
server.disconnectedSessionTTL (120 s by default) so that a tab can reconnect, and drops it only at the next write
to its session store, that is when some other session disconnects: on a quiet server, never. Here the session is
closed at the end of its grace (`Runtime.close_session`, on the server's event loop as it requires) unless it has
reconnected, then its memory is collected and trimmed (gc, then glibc's malloc_trim).

The frame learns of the disconnect through a session-scoped resource (`ui.cache.session_end`, called at every run).

Left out on purpose: other allocators' policies (macOS, musl: nothing is trimmed) and any state kept across
server restarts (a tab that comes back after its session was closed starts a new one; a kept upload reopens from
its link).
"""
from __future__ import annotations

import asyncio
import ctypes
import gc
import os
import threading

GRACE_S = 10.0           # a tab that has not reconnected this long after its disconnect has ended (or TTL/2)

_release = {"timer": None}               # the pending return of memory (a threading.Timer), one at a time
_release_lock = threading.Lock()


def current_session_id() -> str | None:
    """This script run's session id (None outside a run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def disconnected(session_id: str | None) -> None:
    """At a disconnect (on the server's event loop; `ui.cache.session_end` is released then): close the session once
    its grace has passed, unless it is back. Elsewhere (a test clearing the caches by hand, no server), only the
    memory is returned."""
    return_memory_soon()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    from streamlit import config
    from streamlit.runtime import Runtime
    if session_id is None or not Runtime.exists():
        return
    grace = min(GRACE_S, config.get_option("server.disconnectedSessionTTL") / 2)
    loop.call_later(grace, _end_unless_back, session_id)


def _end_unless_back(session_id: str) -> None:
    from streamlit.runtime import Runtime
    runtime = Runtime.instance()
    if not runtime.is_active_session(session_id):
        runtime.close_session(session_id)       # its session state and uploaded files go now
        return_memory_soon()


def return_memory_soon(delay: float = 1.0) -> None:
    """Once released objects are dropped: collect their reference cycles, then hand the freed pages back to
    the system (glibc's malloc_trim; without it the server's RSS stays at its peak). In a timer thread, so that a
    disconnect never waits on it; a burst of disconnects is served by one pass, `delay` s after the last."""
    with _release_lock:
        if _release["timer"] is not None:
            _release["timer"].cancel()
        _release["timer"] = threading.Timer(delay, _return_memory)
        _release["timer"].daemon = True
        _release["timer"].start()


def _glibc():
    """The C library when it is glibc (malloc_trim, mallopt), else None (macOS, musl: their own policy)."""
    try:
        libc = ctypes.CDLL(None)
        return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None
    except OSError:
        return None


def _return_memory() -> None:
    gc.collect()
    if (libc := _glibc()) is not None:
        libc.malloc_trim(0)


def _allocator_for_a_server() -> None:
    """glibc's defaults suit a short program, not a server whose every script run is a new thread: at most
    2 heaps, not 8 per core each keeping its own peak (an explicit MALLOC_ARENA_MAX wins). Arrow (st.dataframe)
    allocates with malloc too, instead of its own pool that keeps what each finished script thread used
    (an explicit ARROW_DEFAULT_MEMORY_POOL wins)."""
    if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
        import pyarrow
        pyarrow.set_memory_pool(pyarrow.system_memory_pool())
    libc = _glibc()
    if libc is not None and "MALLOC_ARENA_MAX" not in os.environ:
        libc.mallopt(-8, 2)                                 # M_ARENA_MAX


_allocator_for_a_server()
