import { useState } from "react";
import { Link, useParams } from "react-router";
import { Alert, Anchor, Button, Input, List, Progress, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { dryRun, importCSV, type DryRun, type ImportProgress } from "./importer";

export function ImportPage() {
  const { acc = "individual", list = "" } = useParams();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [dry, setDry] = useState<DryRun | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const batch = (csv: string, rowOffset: number, dryRun: boolean) =>
    unwrap(
      api.POST("/vendor-lists", {
        params: { query: { "account-id": acc, operation: "import-csv", "vendor-list-id": list } },
        body: { csv, dry_run: dryRun, row_offset: rowOffset, row_limit: 500 },
      }),
    ) as Promise<Schemas["ImportCSVJSON"]>;

  const run = async (check: boolean) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setProgress(null);
    try {
      const csv = await file.text();
      if (check) {
        setDry(await dryRun(csv, batch));
      } else {
        await importCSV(csv, batch, setProgress);
        qc.invalidateQueries({ queryKey: ["list", acc, list] });
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack maw={720}>
      <Title order={2}>Import vendors from CSV</Title>
      <Text size="sm">
        A header row with <code>vendor_name</code> (required), and optionally <code>website_url</code>, <code>product_name</code>,{" "}
        <code>tier</code> and the assessment columns; a file of any length (sent 500 rows at a time). The import merges and never removes. <Anchor component={Link} to={`/a/${acc}/lists/${list}`}>Back to the list</Anchor>
      </Text>
      <Input.Wrapper label="CSV file" labelElement="label" id="csv-file">
        <input id="csv-file" type="file" accept=".csv,text/csv" style={{ display: "block" }}
          onChange={(e) => { setFile(e.currentTarget.files?.[0] ?? null); setDry(null); setProgress(null); }} />
      </Input.Wrapper>
      <Button disabled={!file} loading={busy && !progress} onClick={() => run(true)}>Check (dry run)</Button>
      {dry && (
        <Alert title="Dry run" color={dry.errors.length ? "yellow" : "blue"} data-testid="dry-run">
          {dry.rows} rows. {dry.customVendors.length} vendors have no profile yet and will be queued for enrichment
          {dry.customVendors.length ? `: ${dry.customVendors.slice(0, 20).join(", ")}${dry.customVendors.length > 20 ? "…" : ""}` : "."}
          {dry.errors.length > 0 && (
            <List size="sm">{dry.errors.map((e, i) => <List.Item key={i}>row {e.row}, column {e.column}: {e.message}</List.Item>)}</List>
          )}
        </Alert>
      )}
      <Button disabled={!file || !dry || busy} onClick={() => run(false)}>Import</Button>
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
      <ErrorNote error={error} />
    </Stack>
  );
}
