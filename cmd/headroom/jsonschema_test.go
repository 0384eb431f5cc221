package main

import (
	"bytes"
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"headroom/diagnose"
	"headroom/report"
)

var updateSchema = flag.Bool("update-schema", false, "rewrite docs/json-schema.md from report.Document")

type schemaField struct{ path, typ string }

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
)

// schemaOf walks the Go type of the report as encoding/json writes it: every field's JSON
// path and JSON type. Arrays are path[], maps path.*; "any" is free-form (an artifact's
// data, whose shape its kind names).
func schemaOf(t reflect.Type, path string, seen map[reflect.Type]bool, out *[]schemaField) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	add := func(typ string) { *out = append(*out, schemaField{path, typ}) }
	if t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		add("string")
		return
	}
	if t == reflect.TypeFor[diagnose.Severity]() {
		add(`string: "info", "warning" or "critical"`)
		return
	}
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		add("custom (" + t.String() + ")")
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		add("boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		add("integer")
	case reflect.Float32, reflect.Float64:
		add("number")
	case reflect.String:
		add("string")
	case reflect.Interface:
		add("any")
	case reflect.Slice, reflect.Array:
		add("array")
		schemaOf(t.Elem(), path+"[]", seen, out)
	case reflect.Map:
		add("object (map)")
		schemaOf(t.Elem(), path+".*", seen, out)
	case reflect.Struct:
		if path != "" {
			add("object")
		}
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				schemaOf(f.Type, path, seen, out) // embedded: inlined
				// the embedded struct itself added an "object" row at path: drop it
				if n := len(*out); n > 0 {
					*out = slices.DeleteFunc(*out, func(s schemaField) bool { return s.path == path && s.typ == "object" && path != "" })
				}
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := name
			if path != "" {
				p = path + "." + name
			}
			schemaOf(f.Type, p, seen, out)
		}
	default:
		add(t.Kind().String())
	}
}

func schemaDoc() []byte {
	var fields []schemaField
	schemaOf(reflect.TypeFor[report.Document](), "", map[reflect.Type]bool{}, &fields)
	var b bytes.Buffer
	fmt.Fprintln(&b, "# JSON report schema (`headroom doctor --format json`, schema 1)")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "Generated from the Go type of the report (report.Document) by")
	fmt.Fprintln(&b, "`go test ./cmd/headroom -run TestJSONSchema -update-schema`; the test fails when this page is")
	fmt.Fprintln(&b, "stale, and checks that every key of real doctor output (a capture, a seed) is listed here.")
	fmt.Fprintln(&b, "Fields are only ever added within schema 1 (a rename or removal bumps `schema`); `build`")
	fmt.Fprintln(&b, "(the headroom that wrote the report: version, revision, time, go_version, os, arch) was added")
	fmt.Fprintln(&b, "within schema 1. What the `diagnosis` object means is in [json-diagnosis.md](json-diagnosis.md).")
	fmt.Fprintln(&b, "`a[]` is an element of array `a`; `m.*` a value of map `m`; `any` is free-form (an artifact's")
	fmt.Fprintln(&b, "`data`, whose shape its `kind` names).")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| Path | JSON type |")
	fmt.Fprintln(&b, "|---|---|")
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.path] {
			continue
		}
		seen[f.path] = true
		fmt.Fprintf(&b, "| `%s` | %s |\n", f.path, f.typ)
	}
	return b.Bytes()
}

// observedPaths flattens a JSON value into the paths of schemaDoc, using the documented
// set to tell maps (path.*) from objects and to stop under "any".
func observedPaths(v any, path string, doc map[string]string, out map[string]bool) {
	if path != "" {
		out[path] = true
		if doc[path] == "any" {
			return
		}
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := join(k)
			if _, isMap := doc[join("*")]; isMap {
				p = join("*")
			}
			observedPaths(e, p, doc, out)
		}
	case []any:
		for _, e := range v {
			observedPaths(e, path+"[]", doc, out)
		}
	}
}

func TestJSONSchema(t *testing.T) {
	want := schemaDoc()
	if *updateSchema {
		if err := os.WriteFile("../../docs/json-schema.md", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../../docs/json-schema.md")
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/json-schema.md is stale (err %v): go test ./cmd/headroom -run TestJSONSchema -update-schema", err)
	}
	doc := map[string]string{}
	for _, l := range strings.Split(string(got), "\n") {
		if f := strings.Split(l, " | "); len(f) == 2 && strings.HasPrefix(l, "| `") {
			doc[strings.Trim(f[0], "| `")] = strings.TrimSuffix(f[1], " |")
		}
	}
	for _, args := range [][]string{
		{"doctor", "--format", "json", "--from", "../../testdata/captures/vm-6.18.txtar"},
		{"doctor", "--format", "json", "../../testdata/seeds/000_f481d10e6cc28585.txt"},
		{"doctor", "--format", "json", "../../testdata/seeds/004_acd4bf0469cc77db.txt"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code == exitFailure {
			t.Fatalf("%q: exit 3: %s", args, errb.String())
		}
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		observedPaths(v, "", doc, seen)
		for p := range seen {
			if _, ok := doc[p]; !ok {
				t.Errorf("%q: key %s is not in docs/json-schema.md", args, p)
			}
		}
		for _, top := range []string{"schema", "build", "build.version", "build.go_version", "findings", "diagnosis"} {
			if !seen[top] {
				t.Errorf("%q: no %s in the report", args, top)
			}
		}
	}
}
