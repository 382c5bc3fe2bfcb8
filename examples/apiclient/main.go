// Command apiclient calls a running Vetted API through the Go client that
// oapi-codegen generates from openapi/openapi.yaml (package vettedclient),
// with no hand-written HTTP. It creates an organization, puts vendors on its
// master list, upserts an assessment and reads the dashboard counts.
//
//	make run                               # in another terminal; copy its TOKEN
//	VETTED_BASE=http://127.0.0.1:8080 TOKEN=... go run ./apiclient
//
// The token must belong to a platform admin (the one `make run` prints).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/vetted-dev/vetted/examples/vettedclient"
)

func main() {
	base := os.Getenv("VETTED_BASE")
	if base == "" {
		base = "http://127.0.0.1:8080"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := "Example Org " + time.Now().UTC().Format("20060102-150405")
	if err := run(ctx, base, os.Getenv("TOKEN"), name, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "apiclient:", err)
		os.Exit(1)
	}
}

// run creates the organization name owned by the token's user and works in it.
func run(ctx context.Context, base, token, name string, out io.Writer) error {
	if token == "" {
		return errors.New("set TOKEN to a platform-admin bearer token (make run prints one)")
	}
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
	c, err := vettedclient.NewClientWithResponses(base, vettedclient.WithRequestEditorFn(bearer))
	if err != nil {
		return err
	}

	// Who am I? GET /users without account-id lists my organizations.
	me, err := c.ListUsersWithResponse(ctx, &vettedclient.ListUsersParams{})
	if err := check(me, err, me.JSON200 != nil); err != nil {
		return fmt.Errorf("list my accounts: %w", err)
	}

	// POST /accounts (platform admins): the first user becomes owner.
	email, err := tokenEmail(ctx, c)
	if err != nil {
		return err
	}
	users := []string{email}
	acct, err := c.CreateAccountWithResponse(ctx, vettedclient.CreateAccountInBody{Account: name, Users: users})
	if err := check(acct, err, acct.JSON201 != nil); err != nil {
		return fmt.Errorf("create account: %w", err)
	}
	id := acct.JSON201.Id.String()
	fmt.Fprintf(out, "created account %q (%s)\n", acct.JSON201.Name, id)

	// POST /vendor-lists?operation=save-vendors: names, or objects with a website.
	var slack, figma vettedclient.ListsPostInBody_Vendors_Item
	if err := slack.FromListsPostInBodyVendors0("Slack"); err != nil {
		return err
	}
	site := "https://www.figma.com"
	if err := figma.FromListsPostInBodyVendors1(vettedclient.ListsPostInBodyVendors1{VendorName: "Figma", WebsiteUrl: &site}); err != nil {
		return err
	}
	op := vettedclient.SaveVendors
	vendors := []vettedclient.ListsPostInBody_Vendors_Item{slack, figma}
	saved, err := c.PostVendorListsWithResponse(ctx, &vettedclient.PostVendorListsParams{AccountId: id, Operation: &op},
		vettedclient.ListsPostInBody{Vendors: &vendors})
	if err := check(saved, err, saved.JSON200 != nil); err != nil {
		return fmt.Errorf("save vendors: %w", err)
	}
	result, err := saved.JSON200.AsSaveVendorsJSON()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "master-list now has %d vendors (%d added), %d queued for enrichment\n",
		result.List.VendorCount, len(result.Added), result.OrgEnrichment.Queued)

	// POST /vendor-assessments: upsert the review of one vendor on the list.
	status := vettedclient.InProgress
	useCase := "Team chat"
	slackName := "Slack"
	listID := result.List.Id.String()
	asm, err := c.PostAssessmentWithResponse(ctx, &vettedclient.PostAssessmentParams{AccountId: id, VendorListId: &listID},
		vettedclient.AssessmentBody{VendorName: &slackName, ComplianceApprovalStatus: &status, UseCase: &useCase})
	if err := check(asm, err, asm.JSON201 != nil || asm.JSON200 != nil); err != nil {
		return fmt.Errorf("upsert assessment: %w", err)
	}

	// GET /metrics/dashboard: the counts of the web client's home page.
	m, err := c.GetDashboardMetricsWithResponse(ctx, &vettedclient.GetDashboardMetricsParams{AccountId: id})
	if err := check(m, err, m.JSON200 != nil); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	fmt.Fprintf(out, "dashboard: %d vendors, %d followed, %d active assessments\n",
		m.JSON200.TotalVendors, m.JSON200.FollowedVendors, m.JSON200.ActiveAssessments)
	return nil
}

// tokenEmail finds the caller's e-mail: the owner of its personal space.
func tokenEmail(ctx context.Context, c *vettedclient.ClientWithResponses) (string, error) {
	r, err := c.ListUsersWithResponse(ctx, &vettedclient.ListUsersParams{AccountId: ptr("individual")})
	if err := check(r, err, r.JSON200 != nil && r.JSON200.Members != nil && len(*r.JSON200.Members) > 0); err != nil {
		return "", fmt.Errorf("read my personal space: %w", err)
	}
	return string((*r.JSON200.Members)[0].Email), nil
}

// response is what every generated *Response has.
type response interface{ StatusCode() int }

// check turns a call's error, or an answer without the expected body, into
// an error that carries the problem's detail.
func check(r response, err error, ok bool) error {
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("unexpected answer %d", r.StatusCode())
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
