package mcp

import "slices"

// Protocol versions this core speaks.
const (
	// ModernVersion is the stateless protocol revision: no handshake, each
	// request carries its version and client capabilities in _meta.
	ModernVersion = "2026-07-28"
	// LatestLegacyVersion is the newest version negotiated by "initialize",
	// and the answer to an "initialize" asking for a version the server does
	// not speak.
	LatestLegacyVersion = "2025-11-25"
)

// LegacyVersions returns the versions negotiated by "initialize", newest
// first, in a slice of the caller's own.
func LegacyVersions() []string { return slices.Clone(legacyVersions) }

// legacyVersions lists the versions negotiated by "initialize", newest first.
var legacyVersions = []string{LatestLegacyVersion, "2025-06-18", "2025-03-26", "2024-11-05"}

// supportedVersions lists every version the server speaks, newest first, as
// server/discover and version errors report them.
var supportedVersions = append([]string{ModernVersion}, legacyVersions...)

// negotiate returns the version an "initialize" asking for requested gets.
func negotiate(requested string) string {
	if slices.Contains(legacyVersions, requested) {
		return requested
	}
	return LatestLegacyVersion
}

// batchesAllowed reports whether a legacy version requires JSON-RPC batches
// (they were removed in 2025-06-18).
func batchesAllowed(version string) bool {
	return version == "2024-11-05" || version == "2025-03-26"
}
