package api

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
)

// uuidPattern is a run id as the API writes it (and as path.run_id's
// format: uuid declares it).
const uuidPattern = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

// constrainedRoutes are the operation paths chi matches only when a
// parameter has a given form, so that a path another operation also
// matches goes to that one. /vendor/enrich/{run_id} and
// /vendor/{id_or_name}/incidents (or /security-instances) both match
// /vendor/enrich/incidents, and chi prefers the static segment: the run
// route now matches only a UUID, so every vendor name is reachable,
// "enrich" included (GET /vendor/enrich/incidents is the incidents of the
// vendor named enrich). No vendor route has a UUID where the run route
// has its run_id, so no run is hidden either.
var constrainedRoutes = map[string]string{
	"/vendor/enrich/{run_id}": "/vendor/enrich/{run_id:" + uuidPattern + "}",
}

// routePatterns maps each constrained chi pattern back to the operation's
// path, the route label of logs and metrics.
var routePatterns = func() map[string]string {
	m := make(map[string]string, len(constrainedRoutes))
	for path, pattern := range constrainedRoutes {
		m[pattern] = path
	}
	return m
}()

// routeAdapter is huma's chi adapter, registering constrained routes with
// their chi pattern (the OpenAPI document keeps the plain path).
type routeAdapter struct {
	huma.Adapter
	router chi.Router
}

func newRouteAdapter(r chi.Router) routeAdapter {
	return routeAdapter{Adapter: humachi.NewAdapter(r), router: r}
}

// Handle registers op on the router.
func (a routeAdapter) Handle(op *huma.Operation, handler func(huma.Context)) {
	pattern, ok := constrainedRoutes[op.Path]
	if !ok {
		a.Adapter.Handle(op, handler)
		return
	}
	a.router.MethodFunc(op.Method, pattern, func(w http.ResponseWriter, r *http.Request) {
		handler(humachi.NewContext(op, r, w))
	})
}
