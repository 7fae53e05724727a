module github.com/mctscheck/mctscheck

go 1.26
