import { useState } from "react";
import { Link, useParams } from "react-router";
import { Alert, Anchor, Button, Group, Input, List, Progress, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { dryRun, importCSV, QUOTA_EXCEEDED, resumeFor, saveResume, type DryEnrichment, type DryRun, type ImportProgress, type Resume } from "./importer";
import { canWrite } from "./roles";
import { useRole } from "../App";

export function ImportPage() {
  const { acc = "individual", list = "" } = useParams();
  const qc = useQueryClient();
  const writer = canWrite(acc, useRole(acc));
  const [file, setFile] = useState<File | null>(null);
  const [dry, setDry] = useState<DryRun | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Where an interrupted import of the picked file stopped (this browser remembers it).
  const [resume, setResume] = useState<Resume | null>(null);

  const batch = (csv: string, rowOffset: number, dryRun: boolean) =>
    unwrap(
      api.POST("/vendor-lists", {
        params: { query: { "account-id": acc, operation: "import-csv", "vendor-list-id": list } },
        body: { csv, dry_run: dryRun, row_offset: rowOffset, row_limit: 500 },
      }),
    ) as Promise<Schemas["ImportCSVJSON"]>;

  const run = async (check: boolean, from = 0) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setProgress(null);
    try {
      const csv = await file.text();
      if (check) {
        setDry(await dryRun(csv, batch));
      } else {
        await importCSV(csv, batch, (p) => { setProgress(p); saveResume(localStorage, acc, list, file, p); }, from);
        setResume(null);
        qc.invalidateQueries({ queryKey: ["list", acc, list] });
      }
    } catch (err) {
      setError(err);
      if (!check) setResume(resumeFor(localStorage, acc, list, file));
    } finally {
      setBusy(false);
    }
  };
  // A dry run that found bad rows keeps the import off: the same rows would be refused.
  const refused = !!dry && dry.errors.length > 0;

  return (
    <Stack maw={720}>
      <Title order={2}>Import vendors from CSV</Title>
      <Text size="sm">
        A header row with <code>vendor_name</code> (required), and optionally <code>website_url</code>, <code>product_name</code>,{" "}
        <code>tier</code> and the assessment columns; a file of any length (sent 500 rows at a time). The import merges and never removes. <Anchor component={Link} to={`/a/${acc}/lists/${list}`}>Back to the list</Anchor>
      </Text>
      {!writer && <Text>Viewers cannot import into a list; members, admins and owners can.</Text>}
      {writer && (
        <>
          <Input.Wrapper label="CSV file" labelElement="label" id="csv-file">
            <input id="csv-file" type="file" accept=".csv,text/csv" style={{ display: "block", maxWidth: "100%" }}
              onChange={(e) => {
                const f = e.currentTarget.files?.[0] ?? null;
                setFile(f); setDry(null); setProgress(null); setError(null);
                setResume(f ? resumeFor(localStorage, acc, list, f) : null);
              }} />
          </Input.Wrapper>
          {resume && !busy && (
            <Alert title="An import of this file was interrupted" color="blue" role="status" styles={{ title: { color: "var(--mantine-color-dark-9)" } }}>
              <Stack gap="xs">
                <Text size="sm">{resume.done} of {resume.total} rows of {resume.name} were imported before it stopped.</Text>
                <Group><Button onClick={() => run(false, resume.done)}>Resume from row {resume.done + 1}</Button></Group>
              </Stack>
            </Alert>
          )}
          <Button disabled={!file} loading={busy && !progress} onClick={() => run(true)}>Check (dry run)</Button>
          {dry && (
            <Alert title="Dry run" color={refused ? "red" : "blue"} data-testid="dry-run" c="dark.9" role="status"
              styles={{ title: { color: "var(--mantine-color-dark-9)" } }}>
              {dry.rows} rows. {dry.customVendors.length} vendors have no profile yet
              {dry.customVendors.length ? `: ${dry.customVendors.slice(0, 20).join(", ")}${dry.customVendors.length > 20 ? "…" : ""}` : "."}
              <DryQuota en={dry.enrichment} />
              {refused && (
                <>
                  <Text size="sm" fw={600} mt="xs">Fix these rows and check the file again; the import stays off until then.</Text>
                  <List size="sm">{dry.errors.map((e, i) => <List.Item key={i}>row {e.row}, column {e.column}: {e.message}</List.Item>)}</List>
                </>
              )}
            </Alert>
          )}
          <Button disabled={!file || !dry || refused || busy} onClick={() => run(false)}>Import</Button>
        </>
      )}
      {progress && (
        <Stack gap="xs">
          <Progress value={progress.total ? (100 * progress.done) / progress.total : 0} aria-label="Import progress" />
          <Text size="sm" data-testid="import-progress">
            {progress.done} of {progress.total} rows; {progress.vendorsAdded} vendors and {progress.productsAdded} products added,{" "}
            {progress.assessments} assessments saved, {progress.queued} enrichments queued
            {progress.finished ? ". Done." : "…"}
          </Text>
        </Stack>
      )}
      <ErrorNote error={error} labels={{ "body.csv": "CSV file" }} />
    </Stack>
  );
}

/** DryQuota says what the import will queue for enrichment and what it leaves of the quota (importer.ts, dryQuota). */
function DryQuota({ en }: { en: DryEnrichment }) {
  if (!en.quota) return null;
  const refused = en.notQueued.filter((e) => e.code === QUOTA_EXCEEDED);
  const other = en.notQueued.length - refused.length;
  return (
    <Text size="sm" mt="xs" data-testid="dry-run-quota">
      Enrichment: {en.queued} vendors will be queued
      {refused.length > 0 && `; ${refused.length} will not, the account's enrichment quota being used up (${refused.slice(0, 5).map((e) => e.vendor_name).join(", ")}${refused.length > 5 ? "…" : ""})`}
      {other > 0 && `; ${other} not queued for another reason`}. The quota after the import: {en.quota.used} of {en.quota.limit} used, {en.quota.remaining} left.
    </Text>
  );
}
