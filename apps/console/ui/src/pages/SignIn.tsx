import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { Button, Checkbox, Container, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useConfig } from "../App";
import { devSignIn, oidcCallback, oidcSignIn } from "../auth";
import { ErrorNote } from "../components/ErrorNote";

export function SignInPage() {
  const cfg = useConfig();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? "/";
  const [email, setEmail] = useState("");
  const [admin, setAdmin] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Container component="main" size={420} my={60}>
      <Title order={1} ta="center">Vetted</Title>
      <Text c="dimmed" ta="center" mb="lg">Sign in to review your vendors</Text>
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <ErrorNote error={error} />
          {cfg.oidc && (
            <Button onClick={() => oidcSignIn().catch(setError)}>Sign in with your organization</Button>
          )}
          {cfg.dev_sign_in && (
            <form
              onSubmit={async (e) => {
                e.preventDefault();
                setBusy(true);
                setError(null);
                try {
                  await devSignIn(email, admin);
                  navigate(from, { replace: true });
                } catch (err) {
                  setError(err);
                } finally {
                  setBusy(false);
                }
              }}
            >
              <Stack>
                <Text size="sm">Development sign-in (dev tokens are on)</Text>
                <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
                <Checkbox label="Platform admin" checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} />
                <Button type="submit" loading={busy}>Sign in</Button>
              </Stack>
            </form>
          )}
          {!cfg.oidc && !cfg.dev_sign_in && <Text>No sign-in is configured on this server.</Text>}
        </Stack>
      </Paper>
    </Container>
  );
}

export function CallbackPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    oidcCallback().then(() => navigate("/", { replace: true }), setError);
  }, [navigate]);
  return <Container component="main" my={60}>{error ? <ErrorNote error={error} /> : <Text>Signing in…</Text>}</Container>;
}
