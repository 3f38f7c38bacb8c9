"""The store of saved datasets and runs: what outlives a reload (see base.py for Store, records.py for the records
and keys, sqlite.py and postgres.py for where they are kept). This file only re-exports."""
from rag_core.store.base import Store
from rag_core.store.records import (FILE_NAME, SCHEMA, STORE_ENV, UPLOAD, DatasetInfo, Run, RunInfo, SavedDataset,
                                    dataset_key, golden_key, written_by)

__all__ = ["Store", "FILE_NAME", "SCHEMA", "STORE_ENV", "UPLOAD", "DatasetInfo", "Run", "RunInfo", "SavedDataset",
           "dataset_key", "golden_key", "written_by"]
