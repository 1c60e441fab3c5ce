package redact

import "reflect"

// Copy returns a deep copy of v in which every string an exported field,
// element, map key or value holds, however deep, and every byte slice
// (raw JSON a server sent), is passed through hide: redaction by value,
// wherever a value sits in a report, not field by field. Unexported
// fields are copied as they are; functions and channels are shared.
func Copy[T any](v T, hide func(string) string) T {
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	copyHidden(dst, src, hide)
	return dst.Interface().(T)
}

func copyHidden(dst, src reflect.Value, hide func(string) string) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(hide(src.String()))
	case reflect.Struct:
		dst.Set(src) // the unexported fields, as they are
		for i := range src.NumField() {
			if src.Type().Field(i).IsExported() {
				copyHidden(dst.Field(i), src.Field(i), hide)
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		if src.Type().Elem().Kind() == reflect.Uint8 {
			dst.Set(reflect.ValueOf([]byte(hide(string(src.Bytes())))).Convert(src.Type()))
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyHidden(s.Index(i), src.Index(i), hide)
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			copyHidden(dst.Index(i), src.Index(i), hide)
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(src.Type().Key()).Elem()
			copyHidden(k, it.Key(), hide)
			e := reflect.New(src.Type().Elem()).Elem()
			copyHidden(e, it.Value(), hide)
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyHidden(p.Elem(), src.Elem(), hide)
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		copyHidden(e, src.Elem(), hide)
		dst.Set(e)
	default:
		dst.Set(src)
	}
}
