package api

import (
	"bytes"

	"github.com/vetted-dev/vetted/core/lists"
)

// OldWholeListAnswer is the body get-vendor-lists answered for a list with
// its vendors before the answer was streamed: the whole listsGetBody built,
// then written by the API's JSON format as huma wrote it.
func OldWholeListAnswer(l lists.List, es []lists.Entry) ([]byte, error) {
	var body listsGetBody
	lj := listJSON(l)
	body.List = &lj
	vendors := make([]EntryJSON, 0, len(es))
	for _, e := range es {
		vendors = append(vendors, entryJSON(e))
	}
	body.Vendors = &vendors
	var b bytes.Buffer
	err := jsonFormat.Marshal(&b, body)
	return b.Bytes(), err
}
