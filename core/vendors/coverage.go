package vendors

// CheckCoverage is how many of the scan's checks ran over a scan's
// instances, and how many the scan has: every check of the catalog ran
// unless it recorded its not-checked signal. Instances without any catalog
// code mean no scan, so none ran. The console shows a grade with it
// ("graded on 20 of 26 checks") and hides a grade made from too few.
func CheckCoverage(is []SecurityInstance) (ran, total int) {
	total = len(catalog)
	scanned := false
	notRun := map[string]bool{}
	for _, in := range is {
		info, ok := codeInfo[in.Code]
		if !ok {
			continue
		}
		scanned = true
		if IsNotChecked(in.Code) {
			notRun[info.Check] = true
		}
	}
	if !scanned {
		return 0, total
	}
	return total - len(notRun), total
}
