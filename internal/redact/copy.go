package redact

import (
	"reflect"
	"sync"
)

// Copy returns v with every string an exported field, element, map key or
// value holds, however deep, and every byte slice (raw JSON a server
// sent), passed through hide: redaction by value, wherever a value sits
// in a report, not field by field. v itself is not changed. What hide
// leaves as it is, a slice or map or struct in which it changed nothing,
// is shared with v rather than copied (a report is printed once, and
// copying all of it was most of the time redaction took): neither is to
// be changed afterwards. Unexported fields are kept as they are;
// functions and channels are shared.
func Copy[T any](v T, hide func(string) string) T {
	if out, changed := hidden(reflect.ValueOf(&v).Elem(), hide); changed {
		return out.Interface().(T)
	}
	return v
}

// hidden is src with hide applied to every string it holds, and whether
// that changed anything; when it did not, src itself.
func hidden(src reflect.Value, hide func(string) string) (reflect.Value, bool) {
	switch src.Kind() {
	case reflect.String:
		s := src.String()
		h := hide(s)
		if h == s {
			return src, false
		}
		out := reflect.New(src.Type()).Elem()
		out.SetString(h)
		return out, true
	case reflect.Struct:
		var out reflect.Value
		for _, i := range exportedFields(src.Type()) {
			if f, changed := hidden(src.Field(i), hide); changed {
				if !out.IsValid() {
					out = reflect.New(src.Type()).Elem()
					out.Set(src) // the unexported fields, as they are
				}
				out.Field(i).Set(f)
			}
		}
		return orSource(out, src)
	case reflect.Slice:
		if src.IsNil() {
			return src, false
		}
		if src.Type().Elem().Kind() == reflect.Uint8 {
			b := string(src.Bytes())
			if h := hide(b); h != b {
				return reflect.ValueOf([]byte(h)).Convert(src.Type()), true
			}
			return src, false
		}
		var out reflect.Value
		for i := range src.Len() {
			if e, changed := hidden(src.Index(i), hide); changed {
				if !out.IsValid() {
					out = reflect.MakeSlice(src.Type(), src.Len(), src.Len())
					reflect.Copy(out, src)
				}
				out.Index(i).Set(e)
			}
		}
		return orSource(out, src)
	case reflect.Array:
		var out reflect.Value
		for i := range src.Len() {
			if e, changed := hidden(src.Index(i), hide); changed {
				if !out.IsValid() {
					out = reflect.New(src.Type()).Elem()
					out.Set(src)
				}
				out.Index(i).Set(e)
			}
		}
		return orSource(out, src)
	case reflect.Map:
		if src.IsNil() {
			return src, false
		}
		type entry struct{ k, v reflect.Value }
		var entries []entry
		changed := false
		for it := src.MapRange(); it.Next(); {
			k, kc := hidden(it.Key(), hide)
			v, vc := hidden(it.Value(), hide)
			entries = append(entries, entry{k, v})
			changed = changed || kc || vc
		}
		if !changed {
			return src, false
		}
		m := reflect.MakeMapWithSize(src.Type(), len(entries))
		for _, e := range entries {
			m.SetMapIndex(e.k, e.v)
		}
		return m, true
	case reflect.Pointer:
		if src.IsNil() {
			return src, false
		}
		e, changed := hidden(src.Elem(), hide)
		if !changed {
			return src, false
		}
		p := reflect.New(src.Type().Elem())
		p.Elem().Set(e)
		return p, true
	case reflect.Interface:
		if src.IsNil() {
			return src, false
		}
		e, changed := hidden(src.Elem(), hide)
		if !changed {
			return src, false
		}
		out := reflect.New(src.Type()).Elem()
		out.Set(e)
		return out, true
	}
	return src, false
}

// orSource is (out, true) when out was made, else (src, false).
func orSource(out, src reflect.Value) (reflect.Value, bool) {
	if out.IsValid() {
		return out, true
	}
	return src, false
}

// exported is the indices of each struct type's exported fields, as
// exportedFields found them: a report holds hundreds of values of a few
// types, and reflect's Field is costly to ask each time.
var exported sync.Map // reflect.Type → []int

func exportedFields(t reflect.Type) []int {
	if v, ok := exported.Load(t); ok {
		return v.([]int)
	}
	var out []int
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			out = append(out, i)
		}
	}
	exported.Store(t, out)
	return out
}
