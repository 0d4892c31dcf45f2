# report.awk - turns benchmark rows into Markdown tables, one per group, in
# the order the groups first appear. Input lines (tab-separated, see
# bench/README.md):
#   row  GROUP NAME NS_PER_OP BASELINES DESCRIPTION [UNIT]
#   skip GROUP NAME REASON
# A row's id is GROUP.NAME. BASELINES is "-" or a comma-separated list of ids
# or sums of ids ("a+b"); each ratio is the row's time divided by the
# baseline's (sum of) time(s), so below 1 means faster than the baseline.
# A row that appears several times (a program run in several passes) takes
# the median of its values; repeated skip lines are listed once. A baseline
# that the run reported as skipped is left out of the ratios.
#
# Pivot layout: a group whose every row is named ROW.COLUMN and described
# "column text // row text" is printed as one table with a line per ROW
# and a column per COLUMN (in order of first appearance), each cell the
# value and its ratios (a baseline of the same group and ROW is named by
# its COLUMN), then the columns' texts as a list. Used by the worker rows,
# which measure each payload in several ways.
BEGIN { FS = "\t"; ng = 0; nr = 0; ns = 0 }

$1 == "row" && NF >= 5 {
  id = $2 "." $3
  if (!(id in cnt)) { order[nr++] = id; cnt[id] = 0 }
  all[id, cnt[id]++] = $4 + 0; grp[id] = $2; base[id] = $5; desc[id] = $6; rname[id] = $3
  unit[id] = (NF >= 7 && $7 != "") ? $7 : "ns"
  if (!($2 in seen)) { seen[$2] = 1; groups[ng++] = $2 }
  next
}
$1 == "skip" && NF >= 4 {
  # rows of one engine (last part of the name) skipped for one reason are
  # listed as one line: `group.*.engine` (N rows)
  eng = $3; sub(/^.*\./, "", eng)
  if (eng == $3) eng = ""
  key = $2 SUBSEP eng SUBSEP $4
  wasskipped[$2 "." $3] = 1
  if (!(key in skipn)) { skipkey[ns++] = key; skipfirst[key] = $2 "." $3 }
  if (!((key, $3) in skipnames)) { skipnames[key, $3] = 1; skipn[key]++ }
  if (!($2 in seen)) { seen[$2] = 1; groups[ng++] = $2 }
  next
}

# Median of all[id, 0..cnt[id]).
function median(id,    n, i, j, t, a) {
  n = cnt[id]
  for (i = 0; i < n; i++) a[i] = all[id, i]
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return (n % 2) ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2
}

# Human-readable time for ns.
function fmt_time(x) {
  if (x < 10) return sprintf("%.2f ns", x)
  if (x < 1000) return sprintf("%.1f ns", x)
  if (x < 1e6) return sprintf("%.2f us", x / 1e3)
  if (x < 1e9) return sprintf("%.2f ms", x / 1e6)
  return sprintf("%.2f s", x / 1e9)
}

# The value x of a row in unit u: a time for "ns", else the number and u.
function fmt_value(x, u) {
  if (u == "ns") return fmt_time(x)
  return sprintf("%.0f %s", x, u)
}

# Ratio text for one baseline expression ("a+b"); "" when a part of it was
# reported as skipped (listed under the tables instead).
function fmt_ratio(v, expr,    parts, k, n, sum, missing) {
  n = split(expr, parts, "+"); sum = 0; missing = ""
  for (k = 1; k <= n; k++) {
    if (parts[k] in val) sum += val[parts[k]]
    else if (parts[k] in wasskipped) return ""
    else missing = missing (missing ? ", " : "") parts[k]
  }
  if (missing != "") return "n/a vs `" expr "` (not measured: " missing ")"
  if (sum <= 0) return "n/a vs `" expr "`"
  return sprintf("**%.2fx** `%s`", v / sum, expr)
}

# Ratio text of one baseline expression for a pivot cell: as fmt_ratio,
# the expression shortened to COLUMN when it is an id of group g and row r.
function fmt_ratio_short(v, expr, g, r,    t, lbl) {
  t = fmt_ratio(v, expr)
  if (t == "" || t ~ /^n\/a/) return t
  lbl = expr
  if (index(expr, g "." r ".") == 1 && index(expr, "+") == 0) lbl = substr(expr, length(g "." r ".") + 1)
  return sprintf("**%.2fx** %s", v / val_of(expr), lbl)
}

# Sum of the values of the ids in expr ("a+b").
function val_of(expr,    parts, k, n, sum) {
  n = split(expr, parts, "+"); sum = 0
  for (k = 1; k <= n; k++) sum += val[parts[k]]
  return sum
}

# Whether group g can be printed as a pivot (see the top of this file).
function is_pivot(g,    i, id, any) {
  any = 0
  for (i = 0; i < nr; i++) {
    id = order[i]
    if (grp[id] != g) continue
    if (index(rname[id], ".") == 0 || index(desc[id], " // ") == 0) return 0
    any = 1
  }
  return any
}

function pivot(g,    i, id, nm, r, c, nrow, ncol, rows, cols, hasrow, hascol, rdesc, cdesc, cell, k, m, bl, t, line, d) {
  nrow = 0; ncol = 0
  for (i = 0; i < nr; i++) {
    id = order[i]
    if (grp[id] != g) continue
    nm = rname[id]
    c = nm; sub(/^.*\./, "", c)
    r = substr(nm, 1, length(nm) - length(c) - 1)
    if (!(r in hasrow)) { hasrow[r] = 1; rows[nrow++] = r; rdesc[r] = desc[id]; sub(/^.* \/\/ /, "", rdesc[r]) }
    if (!(c in hascol)) { hascol[c] = 1; cols[ncol++] = c; cdesc[c] = desc[id]; sub(/ \/\/ .*$/, "", cdesc[c]) }
    t = fmt_value(val[id], unit[id])
    if (base[id] != "-" && base[id] != "") {
      m = split(base[id], bl, ",")
      for (k = 1; k <= m; k++) {
        d = fmt_ratio_short(val[id], bl[k], g, r)
        if (d != "") t = t "<br>" d
      }
    }
    cell[r, c] = t
  }
  printf "\n### %s\n\n", g
  line = "| row |"
  for (k = 0; k < ncol; k++) line = line " `" cols[k] "` |"
  print line " what |"
  line = "|---|"
  for (k = 0; k < ncol; k++) line = line "---:|"
  print line "---|"
  for (i = 0; i < nrow; i++) {
    r = rows[i]
    line = "| `" r "` |"
    for (k = 0; k < ncol; k++) line = line " " ((r, cols[k]) in cell ? cell[r, cols[k]] : "") " |"
    d = rdesc[r]; gsub(/\|/, "\\|", d)
    print line " " d " |"
  }
  print ""
  for (k = 0; k < ncol; k++) {
    d = cdesc[cols[k]]; gsub(/\|/, "\\|", d)
    printf "- `%s`: %s\n", cols[k], d
  }
}

END {
  for (i = 0; i < nr; i++) val[order[i]] = median(order[i])
  for (g = 0; g < ng; g++) {
    name = groups[g]; any = 0
    for (i = 0; i < nr; i++) if (grp[order[i]] == name) any = 1
    if (!any) continue
    if (is_pivot(name)) { pivot(name); continue }
    printf "\n### %s\n\n", name
    print "| row | time/op | ratio to baseline | what one op is |"
    print "|---|---:|---|---|"
    for (i = 0; i < nr; i++) {
      id = order[i]
      if (grp[id] != name) continue
      r = ""
      if (base[id] != "-" && base[id] != "") {
        m = split(base[id], bl, ",")
        for (k = 1; k <= m; k++) {
          t = fmt_ratio(val[id], bl[k])
          if (t != "") r = r (r != "" ? "<br>" : "") t
        }
      }
      d = desc[id]; gsub(/\|/, "\\|", d)
      printf "| `%s` | %s | %s | %s |\n", id, fmt_value(val[id], unit[id]), r, d
    }
  }
  if (ns > 0) {
    print "\nNot measured in this run:\n"
    for (i = 0; i < ns; i++) {
      split(skipkey[i], kp, SUBSEP)
      if (skipn[skipkey[i]] > 1)
        printf "- `%s.*.%s` (%d rows): %s\n", kp[1], kp[2], skipn[skipkey[i]], kp[3]
      else
        printf "- `%s`: %s\n", skipfirst[skipkey[i]], kp[3]
    }
  }
}
