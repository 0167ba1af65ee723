package main

import (
	"os"
	"path/filepath"
	"time"
)

// cache keeps what the generator made, by the key of what it was made
// from, in the user's cache folder (as Go's build cache is), so that every
// copy of the repository on the machine shares it.
type cache struct{ dir string }

// keep is how long an entry nobody used stays in the cache.
const keep = 30 * 24 * time.Hour

// openCache returns the cache in the user's cache folder.
func openCache() (*cache, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(base, "mcpbookshop-guide", "generate")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &cache{dir}, nil
}

// get returns the entry of key, and marks it used.
func (c *cache) get(key string) ([]byte, bool) {
	name := filepath.Join(c.dir, key)
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(name, now, now)
	return b, true
}

// put records data as the entry of key, atomically, so that a concurrent
// run reads the old entry or the new one.
func (c *cache) put(key string, data []byte) error {
	f, err := os.CreateTemp(c.dir, key+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), filepath.Join(c.dir, key))
}

// trim removes the entries not used for [keep].
func (c *cache) trim() {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > keep {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
}
