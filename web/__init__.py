"""Templates and static assets of the hub's pages (installed as companion.web)."""
