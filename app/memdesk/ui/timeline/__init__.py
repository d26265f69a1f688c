"""The Timeline view: memories on a date axis, lanes, density and a date range."""
