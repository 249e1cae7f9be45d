// Temporary file so the package resolves while the benchmark is written; safe to delete.
