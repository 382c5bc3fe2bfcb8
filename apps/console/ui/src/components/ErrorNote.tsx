import { Alert, List } from "@mantine/core";
import { Problem } from "../api/client";

/** ErrorNote shows a failed call: its title, detail and every error it names. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof Problem) {
    return (
      <Alert color="red" title={error.title} role="alert">
        {error.detail}
        {error.errors.length > 0 && (
          <List size="sm">
            {error.errors.map((e, i) => (
              <List.Item key={i}>
                {e.location ? <code>{e.location}</code> : null}
                {e.row ? ` row ${e.row}` : ""}
                {e.column ? ` column ${e.column}` : ""}: {e.message}
              </List.Item>
            ))}
          </List>
        )}
      </Alert>
    );
  }
  return (
    <Alert color="red" title="Error" role="alert">
      {String((error as Error)?.message ?? error)}
    </Alert>
  );
}
