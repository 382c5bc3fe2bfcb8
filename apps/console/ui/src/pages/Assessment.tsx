import { useEffect, useState } from "react";
import { Link, useBlocker, useParams } from "react-router";
import {
  Anchor, Badge, Button, FileButton, Group, Paper, Pagination, Progress, Select, Stack, TagsInput, Text, Textarea, TextInput, Timeline, Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fieldError, unwrap, type Schemas } from "../api/client";
import { ErrorNote } from "../components/ErrorNote";
import { uploadFile } from "./upload";
import { STATE_LABEL, TIERS, day } from "./reviews";
import { canWrite } from "./roles";
import { useRole, useTitle } from "../App";
import { focusHeading } from "../page";

const STATUSES: Schemas["ApprovalStatus"][] = ["not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected"];

type Form = {
  tier: Schemas["Tier"];
  condition_due_at: string;
  compliance_approval_status: Schemas["ApprovalStatus"];
  conditional_approval_condition: string;
  sponsor_business_department: string;
  sponsor_contact: string;
  use_case: string;
  data_collected: string[];
  compliance_comment: string;
};

const FIELDS: (keyof Form)[] = ["compliance_approval_status", "conditional_approval_condition", "condition_due_at", "tier",
  "sponsor_business_department", "sponsor_contact", "use_case", "data_collected", "compliance_comment"];
const LABELS: Record<string, string> = {
  "body.compliance_approval_status": "Approval status", "body.conditional_approval_condition": "Condition of the approval",
  "body.condition_due_at": "Condition due by", "body.tier": "Tier", "body.sponsor_business_department": "Sponsor (business department)",
  "body.sponsor_contact": "Sponsor contact (e-mail)", "body.use_case": "Use case", "body.data_collected": "Data collected",
  "body.data_collected[]": "Data collected", "body.compliance_comment": "Comment",
};

const formOf = (a: Schemas["AssessmentJSON"]): Form => ({
  tier: a.tier, condition_due_at: day(a.condition_due_at),
  compliance_approval_status: a.compliance_approval_status, conditional_approval_condition: a.conditional_approval_condition,
  sponsor_business_department: a.sponsor_business_department, sponsor_contact: a.sponsor_contact, use_case: a.use_case,
  data_collected: a.data_collected, compliance_comment: a.compliance_comment,
});

const empty: Form = {
  tier: "", condition_due_at: "",
  compliance_approval_status: "not-started", conditional_approval_condition: "", sponsor_business_department: "",
  sponsor_contact: "", use_case: "", data_collected: [], compliance_comment: "",
};

export function AssessmentPage() {
  const { acc = "individual", list = "", vendor = "" } = useParams();
  const qc = useQueryClient();
  const key = ["assessment", acc, list, vendor];
  const read = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await unwrap(api.GET("/vendor-assessments", { params: { query: { "account-id": acc, "vendor-list-id": list, "vendor-id": vendor } } })))
        .assessments[0] ?? null,
  });
  const name = useQuery({ queryKey: ["vendor", vendor], queryFn: () => unwrap(api.GET("/vendor/{id_or_name}", { params: { path: { id_or_name: vendor } } })) });
  const a = read.data;
  const writer = canWrite(acc, useRole(acc));
  useTitle(name.data?.name ? `Review of ${name.data.name}` : undefined);
  const [form, setForm] = useState<Form>(empty);
  // What the form was loaded with: an edit differs from it until saved.
  const [saved, setSaved] = useState<Form>(empty);
  useEffect(() => {
    if (a) { setForm(formOf(a)); setSaved(formOf(a)); }
  }, [a]);
  const dirty = writer && JSON.stringify(form) !== JSON.stringify(saved);
  // Unsaved edits ask before the page is left: a reload or a closed tab
  // (the browser's own question) and a link inside the console.
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ""; };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm("This review has unsaved changes. Leave without saving them?")) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  const set = <K extends keyof Form>(k: K) => (v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.PUT("/vendor-assessments", {
        params: { query: { "account-id": acc, "vendor-list-id": list } },
        body: { ...form, vendor_id: vendor },
      })),
    onSuccess: () => {
      setSaved(form);
      for (const k of [key, ["audit", acc], ["list", acc, list], ["due", acc], ["dashboard", acc]]) qc.invalidateQueries({ queryKey: k });
      focusHeading();
    },
  });
  const needsCondition = form.compliance_approval_status === "conditional approval";
  const err = (f: string) => fieldError(save.error, `body.${f}`);
  return (
    <Stack maw={900}>
      <Title order={2}>Review of {name.data?.name ?? a?.vendor_name ?? "vendor"}</Title>
      <Anchor component={Link} to={`/a/${acc}/lists/${list}`}>Back to the list</Anchor>
      <ErrorNote error={read.error} />
      {a && (
        <Text data-testid="schedule">
          Last reviewed {day(a.last_reviewed_at) || "never"}; next review {day(a.next_review_at) || "not scheduled"}
          {" "}<Badge variant="light" c="dark.9" color={a.review_state === "overdue" ? "red" : a.review_state === "due_soon" ? "yellow" : "gray"}>{STATE_LABEL[a.review_state]}</Badge>
        </Text>
      )}
      <Paper withBorder p="md">
        <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }} aria-label="Review">
          <fieldset disabled={!writer} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            <Select label="Approval status" data={STATUSES} value={form.compliance_approval_status} allowDeselect={false}
              onChange={(v) => v && set("compliance_approval_status")(v as Schemas["ApprovalStatus"])} error={err("compliance_approval_status")} />
            {needsCondition && (
              <Textarea label="Condition of the approval" withAsterisk value={form.conditional_approval_condition}
                onChange={(e) => set("conditional_approval_condition")(e.currentTarget.value)} error={err("conditional_approval_condition")} />
            )}
            {needsCondition && (
              <TextInput label="Condition due by" type="date" value={form.condition_due_at}
                onChange={(e) => set("condition_due_at")(e.currentTarget.value)} error={err("condition_due_at")} />
            )}
            <Select label="Tier" data={TIERS} value={form.tier} allowDeselect={false}
              onChange={(v) => set("tier")((v ?? "") as Schemas["Tier"])} error={err("tier")} />
            <Group grow>
              <TextInput label="Sponsor (business department)" value={form.sponsor_business_department}
                onChange={(e) => set("sponsor_business_department")(e.currentTarget.value)} error={err("sponsor_business_department")} />
              <TextInput label="Sponsor contact (e-mail)" type="email" value={form.sponsor_contact}
                onChange={(e) => set("sponsor_contact")(e.currentTarget.value)} error={err("sponsor_contact")} />
            </Group>
            <TextInput label="Use case" value={form.use_case} onChange={(e) => set("use_case")(e.currentTarget.value)} error={err("use_case")} />
            <TagsInput label="Data collected" placeholder="Type and press Enter" value={form.data_collected} onChange={set("data_collected")}
              error={err("data_collected")} />
            <Textarea label="Comment" value={form.compliance_comment} onChange={(e) => set("compliance_comment")(e.currentTarget.value)}
              error={err("compliance_comment")} />
            <ErrorNote error={save.error} labels={LABELS} atFields={FIELDS.filter((f) => f !== "condition_due_at" && f !== "conditional_approval_condition" || needsCondition).map((f) => `body.${f}`)} />
            {save.isSuccess && !dirty && <Text fw={600} role="status">Saved.</Text>}
            {dirty && <Text size="sm" c="dimmed">Unsaved changes.</Text>}
            {writer && <Button type="submit" loading={save.isPending} w={160}>Save review</Button>}
          </Stack>
          </fieldset>
        </form>
      </Paper>
      {!writer && <Text size="sm" c="dimmed">You can read this review; viewers do not edit it.</Text>}
      {a && <Documents acc={acc} list={list} assessment={a.id} writer={writer} />}
      {a && <AuditLog acc={acc} assessment={a.id} />}
    </Stack>
  );
}

function Documents({ acc, list, assessment, writer }: { acc: string; list: string; assessment: string; writer: boolean }) {
  const qc = useQueryClient();
  const key = ["documents", acc, assessment];
  // The audit log records an upload when the document list first sees its
  // object, and a removal at once: the history is read again after both.
  const changed = async () => {
    await qc.invalidateQueries({ queryKey: key });
    await qc.invalidateQueries({ queryKey: ["audit", acc, assessment] });
  };
  const docs = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET("/vendor-assessments/documents", { params: { query: { "account-id": acc, "assessment-id": assessment } } })) });
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [over, setOver] = useState(false);
  const upload = async (file: File) => {
    setError(null);
    remove.reset();
    setProgress(0);
    try {
      const u = await unwrap(api.GET("/vendor-assessments/documents/upload-url", {
        params: { query: { "account-id": acc, "vendor-list-id": list, "assessment-id": assessment, "file-name": file.name, "content-type": file.type || "application/octet-stream" } },
      }));
      await uploadFile(u, file, setProgress);
      await changed();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  };
  const download = async (id: string) => {
    try {
      const d = await unwrap(api.GET("/vendor-assessments/documents/download-url", { params: { query: { "account-id": acc, "document-id": id } } }));
      window.location.assign(d.download_url);
    } catch (e) { setError(e); }
  };
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/vendor-assessments/documents", { params: { query: { "account-id": acc, "document-id": id } } })),
    onMutate: () => setError(null),
    onSuccess: changed,
  });
  return (
    <Stack>
      <Title order={3}>Evidence</Title>
      {writer && (
        <Paper
          withBorder p="lg" bg={over ? "blue.0" : undefined}
          onDragOver={(e) => { e.preventDefault(); setOver(true); }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => { e.preventDefault(); setOver(false); const f = e.dataTransfer.files[0]; if (f) void upload(f); }}
          data-testid="dropzone"
        >
          {/* The button is the keyboard's way in (Tab, then Enter or Space): it opens the file chooser. */}
          <Group>
            <Text>Drop a file here, or</Text>
            <FileButton onChange={(f) => { if (f) void upload(f); }}>
              {(props) => <Button {...props} variant="default" disabled={progress !== null}>Choose a file to upload</Button>}
            </FileButton>
          </Group>
          {progress !== null && <Progress value={progress} mt="sm" aria-label="Upload progress" />}
        </Paper>
      )}
      <ErrorNote error={error ?? docs.error ?? remove.error} />
      {(docs.data?.documents ?? []).map((d) => (
        <Group key={d.id} justify="space-between">
          <Text style={{ minWidth: 0 }}>{d.file_name} <Text span size="sm" c="dimmed">({d.size_bytes} bytes, {d.status})</Text></Text>
          <Group>
            <Button size="xs" variant="default" onClick={() => download(d.id)} disabled={d.status !== "uploaded"} aria-label={`Download ${d.file_name}`}>Download</Button>
            {writer && <Button size="xs" color="red" variant="light" onClick={() => remove.mutate(d.id)} aria-label={`Delete ${d.file_name}`}>Delete</Button>}
          </Group>
        </Group>
      ))}
    </Stack>
  );
}

function AuditLog({ acc, assessment }: { acc: string; assessment: string }) {
  const [page, setPage] = useState(1);
  const limit = 10;
  const log = useQuery({
    queryKey: ["audit", acc, assessment, page],
    queryFn: () => unwrap(api.GET("/vendor-assessments/audit-log", { params: { query: { "account-id": acc, "assessment-id": assessment, page, limit } } })),
  });
  const total = log.data?.total_events ?? 0;
  return (
    <Stack>
      <Title order={3}>History</Title>
      <ErrorNote error={log.error} />
      <Timeline bulletSize={14} lineWidth={2} data-testid="audit-log">
        {(log.data?.events ?? []).map((e) => (
          <Timeline.Item key={e.event_id} title={`${new Date(e.created_at).toLocaleString()} by ${e.submitted_by}`}>
            {e.changes.map((c, i) => (
              <Text size="sm" key={i}><b>{c.field}</b>: {c.old_value || "(empty)"} → {c.new_value || "(empty)"}</Text>
            ))}
          </Timeline.Item>
        ))}
      </Timeline>
      {total > limit && (
        <Pagination total={Math.ceil(total / limit)} value={page} onChange={setPage} aria-label="History pages"
          getItemProps={(p) => ({ "aria-label": `History page ${p}` })}
          getControlProps={(c) => ({ "aria-label": c === "previous" ? "Previous page of the history" : c === "next" ? "Next page of the history" : c === "first" ? "First page of the history" : "Last page of the history" })} />
      )}
    </Stack>
  );
}
