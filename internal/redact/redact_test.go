package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	ghp = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)

func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"flag then value", []string{"server.js", "--token", "hunter2", "--port", "8080"}, []string{"server.js", "--token", Mask, "--port", "8080"}},
		{"flag=value", []string{"--api-key=abc", "--access-token=x", "-password=p"}, []string{"--api-key=" + Mask, "--access-token=" + Mask, "-password=" + Mask}},
		{"camel and snake", []string{"--apiKey", "v", "--client_secret", "w"}, []string{"--apiKey", Mask, "--client_secret", Mask}},
		{"assignment", []string{"API_KEY=v1", "token=v2", "debug=true"}, []string{"API_KEY=" + Mask, "token=" + Mask, "debug=true"}},
		{"key shapes", []string{"-y", ghp, "sk-ant-api03-abcdefghijklmnop", "AKIAIOSFODNN7EXAMPLE", "xoxb-1234-5678-abcdEFGH", jwt}, []string{"-y", Mask, Mask, Mask, Mask, Mask}},
		{"high entropy", []string{"q8Zr2LmX9vTb4Nc7Wp1Ys6Hd3Kf0Ja5G"}, []string{Mask}},
		{"names and paths stay", []string{"-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/home/me/projects/some-long-directory-name-2026", "--max-tokens", "100", "--token-file", "/run/secrets/t"},
			[]string{"-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/home/me/projects/some-long-directory-name-2026", "--max-tokens", "100", "--token-file", "/run/secrets/t"}},
		{"URL in an arg", []string{"--url=https://user:pw@example.com/x?key=1&b=2"}, []string{"--url=https://user:" + Mask + "@example.com/x?key=" + Mask + "&b=" + Mask}},
		{"flag at the end", []string{"--token"}, []string{"--token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Args(tc.in)); diff != "" {
				t.Errorf("Args mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080/mcp":                        "http://127.0.0.1:8080/mcp",
		"https://u:p@h/mcp":                                "https://u:" + Mask + "@h/mcp",
		"https://" + ghp + "@github.com/o/r":               "https://" + Mask + "@github.com/o/r",
		"https://h/mcp?api_key=abc&x=&flag":                "https://h/mcp?api_key=" + Mask + "&x=&flag",
		"https://h/cb#access_token=abc&state=s":            "https://h/cb#access_token=" + Mask + "&state=" + Mask,
		"https://hooks.example.com/services/" + ghp + "/x": "https://hooks.example.com/services/" + Mask + "/x",
		"not a url ?a=b":                                   "not a url ?a=" + Mask,
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"Error: invalid token=abc123 for user bob":          "Error: invalid token=" + Mask + " for user bob",
		`{"password": "s3cret", "user": "bob"}`:             `{"password": "` + Mask + `", "user": "bob"}`,
		"Authorization: Bearer abcdefghijk":                 "Authorization: Bearer " + Mask,
		"connecting to https://h/x?sig=zz failed":           "connecting to https://h/x?sig=" + Mask + " failed",
		"GITHUB_PERSONAL_ACCESS_TOKEN is " + ghp + " (bad)": "GITHUB_PERSONAL_ACCESS_TOKEN is " + Mask + " (bad)",
		"usage: server [--port N] [--token T]":              "usage: server [--port N] [--token T]",
		"plain words stay: the key to success":              "plain words stay: the key to success",
		"reading key.json: no such file; token: is prose":   "reading key.json: no such file; token: is prose",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) =\n %q, want\n %q", in, got, want)
		}
	}
}

func TestRedactorKnown(t *testing.T) {
	r := New()
	r.Add("DB_PASSWORD", "correct horse")
	r.Add("NODE_ENV", "production") // not a credential: stays visible
	r.Add("X", "short")
	got := r.String("login failed with correct horse in production mode (short)")
	if want := "login failed with " + Mask + " in production mode (short)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := r.Args([]string{"--db", "pw:correct horse"}); got[1] != "pw:"+Mask {
		t.Errorf("Args = %q, want the known value hidden", got)
	}
	r.AddArgs([]string{"--api-key", "k-123456", "--port", "8080", "SESSION_TOKEN=tok-654321"})
	if got := r.Prose("use k-123456 and tok-654321 on 8080; token: keep " + ghp); got != "use *** and *** on 8080; token: keep ***" {
		t.Errorf("Prose = %q", got)
	}
	if diff := cmp.Diff(map[string]string{"A": Mask, "B": ""}, Map(map[string]string{"A": "x", "B": ""})); diff != "" {
		t.Errorf("Map mismatch (-want +got):\n%s", diff)
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"token": true, "api-key": true, "API_KEY": true, "apiKey": true, "accessToken": true,
		"GITHUB_PERSONAL_ACCESS_TOKEN": true, "password": true, "client_secret": true, "x-api-key": true,
		"port": false, "max-tokens": false, "token-file": false, "keyboard": false, "author": false, "name": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

// FuzzRedact plants a key-shaped secret in arbitrary text and arguments
// and checks that it never comes out, and that redacting twice changes
// nothing more than once.
func FuzzRedact(f *testing.F) {
	f.Add("--token", "x", "https://u:p@h/?a=b")
	f.Add("a=", "--api-key=", "error: ")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, secret := range []string{ghp, jwt, "AKIAIOSFODNN7EXAMPLE"} {
			text := a + " " + secret + " " + b + c
			if out := String(text); strings.Contains(out, secret) {
				t.Fatalf("String(%q) = %q: the secret survived", text, out)
			}
			for _, args := range [][]string{{a, secret, b}, {a, "--token", b + secret}, {"--api-key", secret}} {
				for _, out := range Args(args) {
					if strings.Contains(out, secret) {
						t.Fatalf("Args(%q) = %q: the secret survived", args, out)
					}
				}
			}
		}
		r := New()
		r.Add("TOKEN", b)
		text := a + b + c
		once := r.String(text)
		if len(r.values) == 1 && !strings.Contains(b, "*") && strings.Contains(once, b) {
			t.Fatalf("Redactor.String(%q) = %q: the known value %q survived", text, once, b)
		}
		if twice := r.String(once); twice != once {
			t.Fatalf("String not idempotent on %q:\nonce  %q\ntwice %q", text, once, twice)
		}
		if u := URL(a); URL(u) != u {
			t.Fatalf("URL not idempotent on %q: %q then %q", a, u, URL(u))
		}
	})
}

// TestHelpTextKept: a help text keeps its ordinary --flag=value options and
// every bracket; only a credential flag's value is hidden (issue 28).
func TestHelpTextKept(t *testing.T) {
	for in, want := range map[string]string{
		"usage: agent [--agent-provider=openrouter] [--api-key=KEY] [--model=gpt-x]": "usage: agent [--agent-provider=openrouter] [--api-key=" + Mask + "] [--model=gpt-x]",
		"(token=abc123) {password: hunter22} <secret=s3>":                            "(token=" + Mask + ") {password: hunter22} <secret=" + Mask + ">",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) =\n %q, want\n %q", in, got, want)
		}
	}
	r := New()
	r.AddSecret("postgres-prod-host-77")
	r.AddSecret("1") // too short to hide wherever it appears
	if got := r.String("connecting to postgres-prod-host-77 on port 1"); got != "connecting to "+Mask+" on port 1" {
		t.Errorf("AddSecret: %q", got)
	}
}
