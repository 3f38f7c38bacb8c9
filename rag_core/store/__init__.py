"""The store of saved datasets, runs and people's labels: what outlives a reload (see base.py for Store, labels.py
for labels, records.py for the records and keys, sqlite.py and postgres.py for where they are kept). This file only
re-exports."""
from rag_core.store.base import Store
from rag_core.store.records import (FILE_NAME, SCHEMA, STORE_ENV, UPLOAD, DatasetInfo, Label, Run, RunInfo,
                                    SavedDataset, dataset_key, golden_key, label_id, written_by)

__all__ = ["Store", "FILE_NAME", "SCHEMA", "STORE_ENV", "UPLOAD", "DatasetInfo", "Label", "Run", "RunInfo",
           "SavedDataset", "dataset_key", "golden_key", "label_id", "written_by"]
