package check

import (
	"context"
	"testing"

	"github.com/mcpbookshop/guide/internal/chapterproc"
	"github.com/mcpbookshop/guide/internal/check/checktest"
)

// binaries are the chapters the tests check, built once.
var binaries chapterproc.Binaries

// benchChapter is the chapter the benchmarks check: the first, with two
// tools, in both eras.
const benchChapter = "01-tool-errors"

// BenchmarkCheckStdio measures the whole default check of a built chapter
// over stdio, in both eras: discovery, every probe, a server process per
// era and one more for the initialize of an unsupported version. The
// issue's bound is under 1 s.
func BenchmarkCheckStdio(b *testing.B) {
	path, err := binaries.Path(benchChapter)
	if err != nil {
		b.Fatal(err)
	}
	benchCheck(b, &Config{Command: []string{path}})
}

// BenchmarkCheckHTTP is BenchmarkCheckStdio over Streamable HTTP, against
// one server process. The bound is under 2 s.
func BenchmarkCheckHTTP(b *testing.B) {
	path, err := binaries.Path(benchChapter)
	if err != nil {
		b.Fatal(err)
	}
	url, stop, err := checktest.ServeHTTP(path)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	benchCheck(b, &Config{URL: url})
}

func benchCheck(b *testing.B, cfg *Config) {
	for b.Loop() {
		r, err := Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if r.Fails() || len(r.Eras) != 2 {
			b.Fatalf("the check of %s fails, or finds %d eras", benchChapter, len(r.Eras))
		}
	}
}
