//go:build ignore

// A bare net/http server writing a small JSON object: the yardstick of
// bench/read.sh (what this machine's HTTP stack does with no service
// behind it). Run with: go run bench/bare/main.go 127.0.0.1:PORT
package main

import (
	"encoding/json"
	"log"
	"net/http"
	"os"
)

type vendor struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Domain   string `json:"domain"`
	IsCustom bool   `json:"is_custom"`
}

func main() {
	v := vendor{ID: "0b0f6c0e-8d6e-4a8e-9a3e-1f2d3c4b5a69", Name: "Bench Vendor", Domain: "bench.example"}
	http.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	})
	log.Fatal(http.ListenAndServe(os.Args[1], nil))
}
