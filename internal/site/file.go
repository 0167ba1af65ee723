package site

import (
	"fmt"
	"html/template"
)

// file includes a whole file that is not Go, such as a configuration a
// test runs, highlighted as lang (a name chroma knows: "nginx", "yaml").
func (r *resolver) file(name, lang string) (template.HTML, string, error) {
	b, err := r.readFile(name)
	if err != nil {
		return "", "", err
	}
	if len(b) == 0 {
		return "", "", fmt.Errorf("%s is empty", name)
	}
	code := string(b)
	return figure("source", "", sourceCaption(name, ""), r.highlight(lang, code)), code, nil
}
