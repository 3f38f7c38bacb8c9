"""The dashboard's shared pieces: caches and settings (state), rendering helpers (widgets), charts (charts)."""
