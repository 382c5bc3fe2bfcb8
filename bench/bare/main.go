//go:build ignore

// A bare net/http server: the yardstick of bench/read.sh (what this
// machine's HTTP stack does with no service behind it).
//
//	go run bench/bare/main.go 127.0.0.1:PORT [DIR]
//
// Without DIR it writes a small JSON object at every path. With DIR it
// serves recorded answers byte for byte: for every DIR/N.path (a request
// path with its query, as sent) the bytes of DIR/N.body, as
// application/json, so that the service and the bare server are compared
// on the same bytes; a path not recorded is 404.
package main

import (
	"encoding/json"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

type vendor struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Domain   string `json:"domain"`
	IsCustom bool   `json:"is_custom"`
}

func main() {
	if len(os.Args) > 2 {
		answers := load(os.Args[2])
		log.Printf("bare: %d recorded answers", len(answers))
		log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, ok := answers[r.URL.RequestURI()]
			if !ok {
				http.NotFound(w, r)
				return
			}
			h := w.Header()
			h["Content-Type"] = []string{"application/json"}
			h["Content-Length"] = []string{strconv.Itoa(len(body))}
			_, _ = w.Write(body)
		})))
	}
	v := vendor{ID: "0b0f6c0e-8d6e-4a8e-9a3e-1f2d3c4b5a69", Name: "Bench Vendor", Domain: "bench.example"}
	http.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	})
	log.Fatal(http.ListenAndServe(os.Args[1], nil))
}

// load reads the recorded answers of dir: request URI -> body.
func load(dir string) map[string][]byte {
	paths, err := filepath.Glob(filepath.Join(dir, "*.path"))
	if err != nil {
		log.Fatal(err)
	}
	out := make(map[string][]byte, len(paths))
	for _, p := range paths {
		uri, err := os.ReadFile(p)
		if err != nil {
			log.Fatal(err)
		}
		body, err := os.ReadFile(strings.TrimSuffix(p, ".path") + ".body")
		if err != nil {
			log.Fatal(err)
		}
		out[strings.TrimSpace(string(uri))] = body
	}
	return out
}
