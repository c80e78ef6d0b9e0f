package main

import (
	"context"

	"vouch/agent"

	"vouch/internal/app"
)

// modelOf resolves, for profile runs, the model server and model of b:
// the profile's model, or the chat's current one.
func modelOf(b *backend) app.Resolver {
	return func(ctx context.Context, model string) (*agent.Client, string, error) {
		client, _, err := b.connect(ctx)
		if err != nil {
			return nil, "", err
		}
		if model != "" {
			return client, model, nil
		}
		info, err := b.Info(ctx)
		if err != nil {
			return nil, "", err
		}
		return client, info.Model, nil
	}
}
