package exchange

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// PinnedRequests returns the request files (req/*) of the archives in the
// chapters' script folders under scripts (scripts/*/*.txtar), in file
// order: each is one line, or a session of lines. The tests that seed
// decoders and fuzz targets with what real clients send read them here.
func PinnedRequests(scripts string) ([][]byte, error) {
	names, err := filepath.Glob(filepath.Join(scripts, "*", "*.txtar"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no pinned scripts in %s: %v", scripts, err)
	}
	var reqs [][]byte
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			return nil, err
		}
		for _, file := range ar.Files {
			if strings.HasPrefix(file.Name, "req/") {
				reqs = append(reqs, file.Data)
			}
		}
	}
	return reqs, nil
}
