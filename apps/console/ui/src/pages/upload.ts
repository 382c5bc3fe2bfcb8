// uploadFile sends a file straight to its presigned URL (the server never
// relays the bytes), reporting progress: a PUT with the headers the
// upload-url answer names, or a POST of a form with its policy fields.
import type { Schemas } from "../api/client";

export function uploadFile(u: Schemas["UploadURLOutBody"], file: File, progress: (pct: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(u.method, u.upload_url);
    let body: XMLHttpRequestBodyInit = file;
    if (u.fields && u.method.toUpperCase() === "POST") {
      const form = new FormData();
      for (const [k, v] of Object.entries(u.fields)) form.append(k, v);
      form.append("file", file);
      body = form;
    }
    for (const [k, v] of Object.entries(u.headers ?? {})) {
      if (k.toLowerCase() !== "content-length" && k.toLowerCase() !== "host") xhr.setRequestHeader(k, v);
    }
    xhr.upload.onprogress = (e) => e.lengthComputable && progress((100 * e.loaded) / e.total);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`upload refused: HTTP ${xhr.status} ${xhr.responseText.slice(0, 200)}`)));
    xhr.onerror = () => reject(new Error("upload failed: the storage did not answer"));
    xhr.send(body);
  });
}
