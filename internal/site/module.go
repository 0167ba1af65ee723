package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"strconv"
	"sync"
)

// Browser is what the Run buttons need: each chapter's main compiled for the
// browser (GOOS=js GOARCH=wasm), whose mcp.Main hands the server to the
// page, and the Go toolchain's wasm_exec.js, which starts such a module.
type Browser struct {
	// Modules holds the compiled chapters by directory (chapters/01-...).
	Modules map[string][]byte
	// WasmExec is the toolchain's lib/wasm/wasm_exec.js.
	WasmExec []byte

	pack   sync.Once
	packed map[string]packedModule // by chapter directory
}

// packedModule is a module and its script files, by site path.
type packedModule struct {
	module
	files map[string][]byte
}

// moduleDir is where a site's modules go.
const moduleDir = "assets/run/"

// modulePartSize bounds one script file of a module, so that the page can
// show the loading's progress, file by file.
const modulePartSize = 256 << 10

// module is a chapter's module as the site ships it: gzip-compressed, in
// script files that hand the page their part in base64, so that it loads
// from file:// too, where a page may not fetch a .wasm file.
type module struct {
	name  string // the chapter's directory name, as in 01-tool-errors
	parts int    // how many script files
	size  int    // the compressed module's bytes
}

// addModules writes the modules' script files and wasm_exec.js into the
// site, and returns the modules by chapter directory.
func (s *Site) addModules(b *Browser) (map[string]module, error) {
	mods := make(map[string]module)
	if b == nil {
		return mods, nil
	}
	if len(b.WasmExec) == 0 {
		return nil, fmt.Errorf("the browser modules come without wasm_exec.js")
	}
	s.Files[moduleDir+"wasm_exec.js"] = b.WasmExec
	b.pack.Do(b.packModules) // once: compressing takes a while
	for chapter, p := range b.packed {
		maps.Copy(s.Files, p.files)
		mods[chapter] = p.module
	}
	return mods, nil
}

// packModules packs each module, side by side, or takes it from lastPacked
// when it is the module packed last for its chapter: a guide served while
// one chapter is edited packs that chapter's module alone.
func (b *Browser) packModules() {
	b.packed = make(map[string]packedModule)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for chapter, wasm := range b.Modules {
		wg.Go(func() {
			sum := sha256.Sum256(wasm)
			lastPacked.Lock()
			last, ok := lastPacked.m[chapter]
			lastPacked.Unlock()
			p := last.packed
			if !ok || last.sum != sum {
				p = packModule(chapter, wasm)
				lastPacked.Lock()
				if lastPacked.m == nil {
					lastPacked.m = make(map[string]packedEntry)
				}
				lastPacked.m[chapter] = packedEntry{sum, p}
				lastPacked.Unlock()
			}
			mu.Lock()
			b.packed[chapter] = p
			mu.Unlock()
		})
	}
	wg.Wait()
}

// lastPacked is the module packModules packed last for each chapter, by
// chapter directory, with the SHA-256 of its bytes.
var lastPacked struct {
	sync.Mutex
	m map[string]packedEntry
}

// packedEntry is an entry of lastPacked.
type packedEntry struct {
	sum    [sha256.Size]byte
	packed packedModule
}

// packModule compresses a chapter's module and splits it into script
// files.
func packModule(chapter string, wasm []byte) packedModule {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(wasm)
	w.Close()
	enc := base64.StdEncoding.EncodeToString(z.Bytes())
	p := packedModule{module{name: path.Base(chapter), size: z.Len()}, make(map[string][]byte)}
	for from := 0; from < len(enc); from += modulePartSize {
		part := enc[from:min(from+modulePartSize, len(enc))]
		p.files[p.partFile(p.parts)] = fmt.Appendf(nil, "guideModulePart(%s, %d, %q);\n", strconv.Quote(p.name), p.parts, part)
		p.parts++
	}
	return p
}

// partFile is the site path of the module's script file i.
func (m module) partFile(i int) string {
	return fmt.Sprintf("%s%s.%d.js", moduleDir, m.name, i)
}

// ChapterDirs returns the chapters whose servers the transcripts can run:
// every directory under chapters/ that has testscript archives under
// testdata/scripts/ by the same name.
func ChapterDirs(root fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(root, chaptersDir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if fi, err := fs.Stat(root, scriptsDir+"/"+e.Name()); err == nil && fi.IsDir() {
			dirs = append(dirs, chaptersDir+"/"+e.Name())
		}
	}
	return dirs, nil
}
