package app

const roleDefinition = `{"name":"notes","kind":"role","role":{"instructions":"You write release notes."}}`
