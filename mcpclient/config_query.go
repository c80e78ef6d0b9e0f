package mcpclient

import (
	"net/url"
	"strings"

	"vouch/skills"
)

// urlCredential returns the sentence refusing a server URL that carries a
// credential, or "" (SPEC B1; issue 14 item 7, issue 25 item 5). A URL is
// stored in the database and shown; a credential belongs in the secret
// header, which goes to the keyring. A credential is known by the name it
// is given — a query, fragment or matrix (";name=value") parameter named
// api_key, token, access_token, X-Amz-Signature, … — or by what a value or
// path segment looks like: a fixed-format key or a long high-entropy token
// (skills.CredentialShape). The sentence names the place, never the value.
func urlCredential(u *url.URL) string {
	const put = " and put the token in the secret header instead (for example Authorization: Bearer …); a URL is stored and shown, a secret header is kept in the keyring."
	if name, shaped := paramCredential(u.RawQuery); name != "" {
		return "Remove the " + cleanText(name, 40) + " parameter from the URL's query" + put
	} else if shaped {
		return "Remove the value that looks like a key from the URL's query" + put
	}
	if name, shaped := paramCredential(u.EscapedFragment()); name != "" {
		return "Remove the " + cleanText(name, 40) + " parameter from the URL's fragment" + put
	} else if shaped || skills.CredentialShape(u.Fragment) != "" {
		return "Remove the value that looks like a key from the URL's fragment" + put
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		parts := strings.Split(seg, ";")
		for i, p := range parts {
			k, v, isParam := strings.Cut(p, "=")
			if i > 0 && isParam && isCredentialName(unescape(k)) {
				return "Remove the ;" + cleanText(unescape(k), 40) + "= parameter from the URL's path" + put
			}
			if !isParam {
				v = p
			}
			if skills.CredentialShape(unescape(v)) != "" {
				return "Remove the path segment that looks like a key from the URL's path" + put
			}
		}
	}
	return ""
}

// paramCredential reads raw as name=value pairs (split on & and ;) and
// returns the first name that names a credential, or whether a value
// looks like one.
func paramCredential(raw string) (name string, shaped bool) {
	if raw == "" {
		return "", false
	}
	for _, kv := range strings.FieldsFunc(raw, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		k, v = unescape(k), unescape(v)
		if isCredentialName(k) {
			return k, false
		}
		if skills.CredentialShape(v) != "" {
			shaped = true
		}
	}
	return "", shaped
}

// unescape percent-decodes s, or returns it as it is when it is not
// well-formed.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// isCredentialName reports whether a parameter's name is one services use
// for keys, tokens, passwords and request signatures.
func isCredentialName(name string) bool {
	n := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	switch n {
	case "key", "apikey", "token", "accesstoken", "authtoken", "auth", "authorization", "bearer", "secret",
		"clientsecret", "password", "passwd", "pwd", "pass", "apitoken", "xapikey", "sessiontoken", "refreshtoken",
		"idtoken", "privatetoken", "accesskey", "secretkey", "sig", "signature", "credential", "credentials", "jwt",
		"xamzcredential", "xamzsecuritytoken", "xgoogcredential", "awsaccesskeyid", "googleaccessid":
		return true
	}
	return strings.HasSuffix(n, "token") || strings.HasSuffix(n, "secret") || strings.HasSuffix(n, "apikey") ||
		strings.HasSuffix(n, "password") || strings.HasSuffix(n, "signature")
}
