package mcpclient

import (
	"net/url"
	"strings"
)

// credentialParam returns the name of the first query parameter of u that
// carries a credential (api_key, token, access_token, secret, …; SPEC B1,
// issue 14 item 7), or "". A URL is stored in the database and shown;
// a credential belongs in the secret header, which goes to the keyring.
func credentialParam(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		// An unparsable query is checked by its raw names.
		q = url.Values{}
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			q[k] = nil
		}
	}
	for k := range q {
		if isCredentialName(k) {
			return k
		}
	}
	return ""
}

// isCredentialName reports whether a query parameter's name is one
// services use for keys, tokens and passwords.
func isCredentialName(name string) bool {
	n := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	switch n {
	case "key", "apikey", "token", "accesstoken", "authtoken", "auth", "authorization", "bearer", "secret",
		"clientsecret", "password", "passwd", "pwd", "pass", "apitoken", "xapikey", "sessiontoken", "refreshtoken",
		"idtoken", "privatetoken", "accesskey", "secretkey", "sig", "signature", "credential", "credentials", "jwt":
		return true
	}
	return strings.HasSuffix(n, "token") || strings.HasSuffix(n, "secret") || strings.HasSuffix(n, "apikey") ||
		strings.HasSuffix(n, "password")
}
