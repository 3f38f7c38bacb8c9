"""The command line, one module per command: `report` (the article's tables), `verify` (one answer against its
spans), `compare` (setups side by side). `options` declares every option once; `output` writes what a command
prints (and ends quietly when the reader goes away); `inputs` reads the corpus and golden set a command asks for.
`rag_core/__main__.py` only dispatches. Nothing is re-exported here: import the module you need."""
