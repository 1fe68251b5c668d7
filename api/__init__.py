"""The front doors: REST (/api/v1), MCP (/mcp) and the website, all over one operation registry."""
