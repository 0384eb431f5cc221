package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"headroom/model"
)

// maxInputBytes bounds what ParseChanges reads: a plan or a doctor report is kilobytes.
const maxInputBytes = 16 << 20

// ParseChanges reads changes in any of the shapes headroom produces:
//
//   - a JSON array of model.Change;
//   - an object with a "settings" or "changes" array of model.Change (`headroom plan
//     --format json`);
//   - a doctor report (`headroom doctor --format json`): an object whose "findings" each
//     carry "changes"; a change without a rule gets its finding's id.
//
// Changes are returned in input order. A change whose key and recommended value both repeat
// an earlier one is dropped; the same key asked twice with different values is an error,
// since applying both would leave whichever came last.
func ParseChanges(r io.Reader) ([]model.Change, error) {
	data, err := readInput(r)
	if err != nil {
		return nil, err
	}
	return parseChangesData(data)
}

func readInput(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading changes: %w", err)
	}
	if len(data) > maxInputBytes {
		return nil, fmt.Errorf("changes input is larger than %d bytes", maxInputBytes)
	}
	return data, nil
}

func parseChangesData(data []byte) ([]model.Change, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("changes input is empty")
	}
	var changes []model.Change
	switch data[0] {
	case '[':
		if err := strictUnmarshal(data, &changes); err != nil {
			return nil, fmt.Errorf("changes input: array of changes: %w", err)
		}
	case '{':
		var doc struct {
			Settings []model.Change `json:"settings"`
			Changes  []model.Change `json:"changes"`
			Findings []struct {
				ID      string         `json:"id"`
				Changes []model.Change `json:"changes"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("changes input: %w", err)
		}
		changes = append(changes, doc.Settings...)
		changes = append(changes, doc.Changes...)
		for _, f := range doc.Findings {
			for _, c := range f.Changes {
				if c.Rule == "" {
					c.Rule = f.ID
				}
				changes = append(changes, c)
			}
		}
		if doc.Settings == nil && doc.Changes == nil && doc.Findings == nil {
			return nil, errors.New(`changes input: a JSON object needs a "settings", "changes" or "findings" array`)
		}
	default:
		return nil, fmt.Errorf("changes input: want a JSON array or object, got %q", clip(string(data), 20))
	}
	return validateChanges(changes)
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func validateChanges(in []model.Change) ([]model.Change, error) {
	out := make([]model.Change, 0, len(in))
	seen := map[string]int{} // kind+key → index in out
	for i, c := range in {
		switch c.Kind {
		case model.ChangeSysctl, model.ChangeEthtool, model.ChangeTC, model.ChangeOther:
		case "":
			return nil, fmt.Errorf("change %d (%q): no kind", i+1, c.Key)
		default:
			return nil, fmt.Errorf("change %d (%q): unknown kind %q (want sysctl, ethtool, tc or other)", i+1, c.Key, c.Kind)
		}
		if c.Key == "" {
			return nil, fmt.Errorf("change %d: no key", i+1)
		}
		if c.Kind == model.ChangeSysctl {
			if _, err := KeyPath(c.Key); err != nil {
				return nil, fmt.Errorf("change %d: %w", i+1, err)
			}
		}
		if c.Kind != model.ChangeOther && NormalizeValue(c.Recommended) == "" {
			return nil, fmt.Errorf("change %d (%s %s): no recommended value", i+1, c.Kind, c.Key)
		}
		if c.Kind == model.ChangeOther {
			out = append(out, c)
			continue
		}
		id := c.Kind + "\x00" + c.Key
		if j, ok := seen[id]; ok {
			if SameValue(out[j].Recommended, c.Recommended) {
				continue
			}
			return nil, fmt.Errorf("change %d: %s %s asked twice with different values (%q and %q)",
				i+1, c.Kind, c.Key, out[j].Recommended, c.Recommended)
		}
		seen[id] = len(out)
		out = append(out, c)
	}
	return out, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
