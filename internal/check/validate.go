package check

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// validate checks a JSON value against a schema, as a client of the tool
// would, with jsonschema-go.
func validate(s *jsonschema.Schema, raw json.RawMessage) error {
	resolved, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return resolved.Validate(v)
}
