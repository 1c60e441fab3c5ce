// Package redact hides credentials before text leaves the process.
//
// Args hides the values of credential flags (--token, --api-key, key=...)
// and of anything shaped like a key (sk-..., ghp_..., xox..., AKIA..., JWTs,
// long random strings); URL hides a URL's user information and its query
// and fragment values; String finds both in free text such as an error
// message or a line of stderr. A Redactor also hides the exact values it
// was given (env values and headers from a config), wherever they appear.
package redact
