"""Reports over the catalogue."""
