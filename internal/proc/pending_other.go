//go:build !unix

package proc

import "os"

// Pending reads what f holds already without waiting; on this platform it
// cannot tell, and returns nil.
func Pending(*os.File, []byte) []byte { return nil }
