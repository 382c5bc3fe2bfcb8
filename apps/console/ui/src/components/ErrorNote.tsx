import { Alert, List } from "@mantine/core";
import { Problem } from "../api/client";
import { inside, locationLabel, type Labels } from "./errors";

/**
 * ErrorNote shows a failed call: its title, detail and every error it
 * names, each by its field's label (labels, or its name made readable).
 * Errors at the locations in atFields are shown at those fields already and
 * are not repeated here.
 */
export function ErrorNote({ error, labels, atFields = [] }: { error: unknown; labels?: Labels; atFields?: string[] }) {
  if (!error) return null;
  if (error instanceof Problem) {
    const rest = error.errors.filter((e) => !inside(e.location, atFields));
    const shownAtFields = error.errors.length > 0 && rest.length === 0;
    return (
      <Alert color="red" title={error.title} role="alert" styles={{ title: { color: "var(--mantine-color-red-9)" } }}>
        {shownAtFields ? "Correct the fields marked in red." : error.detail}
        {rest.length > 0 && (
          <List size="sm">
            {rest.map((e, i) => (
              <List.Item key={i}>
                {[locationLabel(e.location, labels), e.row ? `row ${e.row}` : "", e.column ? `column ${e.column}` : ""].filter(Boolean).join(", ")}
                {e.location || e.row || e.column ? ": " : ""}{e.message}
              </List.Item>
            ))}
          </List>
        )}
      </Alert>
    );
  }
  return (
    <Alert color="red" title="Error" role="alert" styles={{ title: { color: "var(--mantine-color-red-9)" } }}>
      {String((error as Error)?.message ?? error)}
    </Alert>
  );
}
