package listenaddr

import "testing"

func TestResolve(t *testing.T) {
	for in, want := range map[string]string{
		":8080":          "127.0.0.1:8080",
		":0":             "127.0.0.1:0",
		"localhost:8080": "localhost:8080",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"[::]:8080":      "[::]:8080",
		"[::1]:9":        "[::1]:9",
	} {
		if got, err := Resolve(in); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Resolve("8080"); err == nil {
		t.Error(`Resolve("8080"): no error`)
	}
}
