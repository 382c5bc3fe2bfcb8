package incidents

// The word lists of the news rule, in folded form (FoldText). They are the
// whole of what the rule knows about language; docs/decisions/incidents.md
// explains each, and the corpus under testdata measures them.

// securityTerms make a story about a security event. A story about a vendor
// without one of them is at most a possible match.
var securityTerms = []string{
	"breach", "breached", "breaches", "data breach", "hacked", "hack", "hackers", "hacker",
	"ransomware", "compromised", "compromise", "leaked", "leak", "leaks", "exposed data",
	"data exposure", "exposed customer data", "exploited", "exploiting", "exploit",
	"actively exploited", "zero day", "0 day", "vulnerability exploited", "stolen credentials",
	"credential theft", "stolen data", "data theft", "stole", "stolen", "intrusion",
	"cyberattack", "cyber attack", "cyberattacks", "unauthorized access", "malware",
	"extortion", "security incident", "cybersecurity incident", "threat actor", "threat actors",
	"data stolen", "data exposed", "supply chain attack", "backdoor", "backdoored",
}

// ambiguousNames are directory names that are also ordinary words or other
// companies' names. Named alone they are no evidence: a story must also give
// a second signal (the vendor's domain, its legal name, one of its products,
// a possessive, or the vendor speaking).
var ambiguousNames = map[string]bool{
	"box": true, "zoom": true, "notion": true, "slack": true, "square": true, "ring": true,
	"signal": true, "apple": true, "oracle": true, "target": true, "segment": true,
	"progress": true, "snowflake": true, "shell": true, "visa": true, "chase": true,
	"delta": true, "unity": true, "sage": true, "mercury": true, "discord": true,
	"stripe": true, "gap": true, "amazon": true, "twitter": true, "meta": true,
	"elastic": true, "compass": true, "bolt": true, "plaid": true, "ramp": true,
	"front": true, "loom": true, "linear": true, "monday": true, "basecamp": true,
	"intercom": true, "mint": true, "wise": true, "guardian": true, "sentinel": true,
	"pulse": true, "duo": true,
}

// IsAmbiguousName reports whether a folded name needs a second signal in
// news.
func IsAmbiguousName(folded string) bool { return ambiguousNames[folded] }

// speechVerbs after a name make it the speaker of the story ("Okta said"),
// a second signal.
var speechVerbs = []string{
	"said", "says", "confirmed", "confirms", "disclosed", "discloses", "announced",
	"acknowledged", "acknowledges", "admitted", "admits", "notified", "notifies",
	"revealed", "reveals",
}

// toolBefore are the words just before a name that make it a tool of the
// attack or someone else's installation of its product ("impersonating
// Microsoft", "into its Atlassian server"), not the victim.
var toolBefore = []string{
	"impersonating", "impersonate", "impersonates", "posing as", "poses as", "pose as",
	"fake", "spoofed", "spoofing", "abused", "abusing", "abuse", "abuses", "via",
	"through", "using", "uses", "use", "hosted on", "disguised as", "mimicking", "mimic",
	"mimics", "lookalike", "malicious", "its", "their", "its own", "their own", "our",
}

// sourceBefore are the words just before a name that make it the story's
// source ("according to Cisco").
var sourceBefore = []string{
	"according to", "researchers at", "analysts at", "experts at", "report by", "reported by",
	"discovered by", "spotted by", "found by", "tracked by", "attributed by",
	"researchers from", "analysts from", "report from", "blog by",
}

// toolAfter are the words just after a name, or after the one word that
// follows it ("Microsoft Teams used to"), that make it a tool of the attack
// or the place the victim's data was kept ("GitHub repositories").
var toolAfter = []string{
	"lures", "lure", "themed", "phishing", "installers", "installer", "used to",
	"to deliver", "to distribute", "to host", "to spread", "meeting invites", "invites",
	"links", "webhooks", "domains", "accounts to", "impersonation", "login pages",
	"login page", "lookalike", "repositories", "repository", "repos", "cdn",
}

// sourceAfter are the words just after a name that make it the story's
// source ("Microsoft Threat Intelligence", "Cisco Talos"). A story that also
// names one of the vendor's products is about the vendor even so ("Citrix
// warns of NetScaler zero-day").
var sourceAfter = []string{
	"researchers", "researcher", "threat intelligence", "threat hunters",
	"security researchers", "talos", "analysts", "warned", "warns", "tracks", "observed",
}
