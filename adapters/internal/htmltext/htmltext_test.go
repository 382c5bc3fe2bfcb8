package htmltext

import "testing"

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<p>Okta <b>confirms</b> breach</p><p>of its support system</p>", "Okta confirms breach of its support system"},
		{`Hello<script>alert("x")</script> <style>p{color:red}</style>world`, "Hello world"},
		{"AT&amp;T &lt;b&gt; leaked", "AT&T <b> leaked"},
		{"plain   text\n\twith space", "plain text with space"},
		{"<img src=x onerror=alert(1)>caption", "caption"},
	} {
		if got := Text(tc.in, 0); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Text("ééé", 3); got != "é…" {
		t.Errorf("cut = %q, want é…", got)
	}
}
