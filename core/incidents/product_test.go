package incidents

import "testing"

func TestRecordsProduct(t *testing.T) {
	for _, c := range []struct {
		products []string
		affected string
		want     bool
	}{
		{[]string{"Connect Secure"}, "Connect Secure", true},
		{[]string{"connect-secure"}, "Connect Secure", true},
		{[]string{"Ivanti Connect Secure"}, "Connect Secure", true},
		{[]string{"EPMM"}, "Endpoint Manager Mobile (EPMM)", true},
		{[]string{"Neurons"}, "Connect Secure", false},
		{[]string{"Secureconnect"}, "Connect Secure", false},
		{nil, "Connect Secure", false},
		{[]string{"Connect Secure"}, "", false},
	} {
		if got := RecordsProduct(c.products, c.affected); got != c.want {
			t.Errorf("RecordsProduct(%q, %q) = %v, want %v", c.products, c.affected, got, c.want)
		}
	}
}
