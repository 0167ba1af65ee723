// Package nginx holds a deployment recipe, not code: mcp.conf, the nginx
// configuration that puts three processes of an MCP server behind one
// endpoint, both protocol eras. Its tests run real nginx in front of real
// chapter processes on loopback, and show what the guide's page "Deploying
// and scaling" says: modern-era calls spread over every backend; legacy-era
// sessions work when routed by their Mcp-Session-Id and fail without it;
// the official Go SDK client sees the chapters' errors through nginx as it
// does directly; and a rolling restart under load loses no request. They
// skip when nginx is not installed (.ci/run installs Debian's package).
package nginx
