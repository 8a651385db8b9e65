package sqlite

import (
	"strings"
	"testing"
)

// TestSchemaColumnTypes: every column the migrations declare has one of
// SQLite's own type names. SQLite accepts any word as a type, so a typo
// such as "INTEGERNOT NULL" silently drops the constraint it meant to
// declare (the column's type becomes "INTEGERNOT").
func TestSchemaColumnTypes(t *testing.T) {
	a := openTemp(t)
	rows, err := a.db.QueryContext(t.Context(), `SELECT m.name, p.name, p.type, p."notnull"
		FROM sqlite_master m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name LIKE 'gatehouse%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	known := map[string]bool{"TEXT": true, "INTEGER": true, "BLOB": true, "REAL": true}
	n := 0
	for rows.Next() {
		var table, column, typ string
		var notNull bool
		if err := rows.Scan(&table, &column, &typ, &notNull); err != nil {
			t.Fatal(err)
		}
		n++
		if !known[strings.ToUpper(typ)] {
			t.Errorf("%s.%s has type %q", table, column, typ)
		}
		if typ == "INTEGER" && (column == "created_at") && !notNull && table != "gatehouse_sessions" {
			// gatehouse_sessions.created_at came later, by ALTER TABLE.
			t.Errorf("%s.%s may be NULL", table, column)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("read %d columns; the query found too few tables", n)
	}
}
