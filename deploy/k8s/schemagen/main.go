// Command schemagen writes strict JSON schemas for the Kubernetes kinds that
// deploy/k8s uses, derived by reflection from the Go API types of a pinned
// k8s.io/api release, into a directory kubeconform reads offline:
//
//	go run . -out ../schemas           # regenerate
//	go run . -out ../schemas -check    # fail when the committed files differ
//
// kubeconform then validates the manifests with
// -schema-location 'deploy/k8s/schemas/{{.ResourceKind}}{{.KindSuffix}}.json'.
//
// Each schema is standalone and strict: every object lists its fields and
// refuses others (additionalProperties: false), scalars have their types,
// fields the API requires (a json tag without omitempty, as the API types
// mark them) are required, and apiVersion and kind are fixed. CI has no
// network beyond package registries, so the schemas the kubeconform project
// publishes cannot be fetched; the Go types come through the module proxy.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// kinds are the resources deploy/k8s may use.
var kinds = []struct {
	group, version, kind string
	obj                  any
}{
	{"", "v1", "ConfigMap", corev1.ConfigMap{}},
	{"", "v1", "Secret", corev1.Secret{}},
	{"", "v1", "Service", corev1.Service{}},
	{"", "v1", "ServiceAccount", corev1.ServiceAccount{}},
	{"apps", "v1", "Deployment", appsv1.Deployment{}},
	{"batch", "v1", "Job", batchv1.Job{}},
	{"autoscaling", "v2", "HorizontalPodAutoscaler", autoscalingv2.HorizontalPodAutoscaler{}},
	{"policy", "v1", "PodDisruptionBudget", policyv1.PodDisruptionBudget{}},
}

func main() {
	out := flag.String("out", "../schemas", "directory of the schema files")
	check := flag.Bool("check", false, "compare with the files in -out instead of writing them")
	flag.Parse()
	if err := run(*out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}

func run(out string, check bool) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, k := range kinds {
		apiVersion, suffix := k.version, "-"+k.version
		if k.group != "" {
			apiVersion, suffix = k.group+"/"+k.version, "-"+k.group+"-"+k.version
		}
		s := schemaOf(reflect.TypeOf(k.obj), nil)
		props := s["properties"].(map[string]any)
		props["apiVersion"] = map[string]any{"type": "string", "enum": []string{apiVersion}}
		props["kind"] = map[string]any{"type": "string", "enum": []string{k.kind}}
		meta := props["metadata"].(map[string]any)
		meta["required"] = []string{"name"}
		s["required"] = []string{"apiVersion", "kind", "metadata"}
		s["description"] = fmt.Sprintf("%s %s, generated from k8s.io/api by deploy/k8s/schemagen", apiVersion, k.kind)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", " ")
		if err := enc.Encode(s); err != nil {
			return err
		}
		file := filepath.Join(out, strings.ToLower(k.kind)+suffix+".json")
		if check {
			have, err := os.ReadFile(file)
			if err != nil || !bytes.Equal(have, buf.Bytes()) {
				return fmt.Errorf("%s is stale: run (cd deploy/k8s/schemagen && go run . -out ../schemas)", file)
			}
			continue
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

var (
	quantity  = reflect.TypeOf(resource.Quantity{})
	intOrStr  = reflect.TypeOf(intstr.IntOrString{})
	timeT     = reflect.TypeOf(metav1.Time{})
	microTime = reflect.TypeOf(metav1.MicroTime{})
	duration  = reflect.TypeOf(metav1.Duration{})
	rawExt    = reflect.TypeOf(runtime.RawExtension{})
	fieldsV1  = reflect.TypeOf(metav1.FieldsV1{})
)

// schemaOf maps a Go API type to JSON schema; stack breaks recursion.
func schemaOf(t reflect.Type, stack []reflect.Type) map[string]any {
	switch t {
	case quantity:
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
	case intOrStr:
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
	case timeT, microTime:
		return map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
	case duration:
		return map[string]any{"type": "string"}
	case rawExt, fieldsV1:
		return map[string]any{}
	}
	for _, s := range stack {
		if s == t {
			return map[string]any{} // recursive type: accept anything below
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), stack)
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string"} // base64
		}
		return map[string]any{"type": []string{"array", "null"}, "items": schemaOf(t.Elem(), stack)}
	case reflect.Map:
		return map[string]any{"type": []string{"object", "null"}, "additionalProperties": schemaOf(t.Elem(), stack)}
	case reflect.Struct:
		props, required := map[string]any{}, []string{}
		addFields(t, append(stack, t), props, &required)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	case reflect.Interface:
		return map[string]any{}
	}
	panic("schemagen: unsupported type " + t.String())
}

// addFields adds t's JSON fields, with inlined and embedded structs merged.
func addFields(t reflect.Type, stack []reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if (f.Anonymous && name == "") || strings.Contains(opts, "inline") {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			addFields(ft, stack, props, required)
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = schemaOf(f.Type, stack)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			*required = append(*required, name)
		}
	}
}
