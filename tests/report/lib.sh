# shellcheck shell=bash
# tests/report/lib.sh: validators for tools/pmuboot-report's output, sourced by tests/report/run.sh and
# tools/check.sh. Each prints what is wrong and returns non-zero.

# validate_junit FILE: against tests/report/junit.xsd (the JUnit XML Jenkins and GitLab read)
validate_junit() { xmllint --noout --schema tests/report/junit.xsd "$1" 2>&1 | grep -v ' validates$'; return "${PIPESTATUS[0]}"; }

# validate_json_against SCHEMA FILE...: JSON::Validator, one process for all files
validate_json_against() {
    perl -MJSON::Validator -MJSON::PP -e '
        my $v = JSON::Validator->new; $v->schema(shift @ARGV);
        my $bad = 0;
        for my $file (@ARGV) {
            open my $f, "<", $file or do { print "$file: $!\n"; $bad++; next };
            local $/;
            my $doc = eval { JSON::PP->new->decode(<$f>) } or do { print "$file: not JSON: $@"; $bad++; next };
            my @e = $v->validate($doc);
            print "$file: $_\n" for @e;
            $bad++ if @e;
        }
        exit($bad ? 1 : 0)' "$@"
}

# validate_json FILE...: against docs/report-json.schema.json
validate_json() { validate_json_against docs/report-json.schema.json "$@"; }

# validate_kcidb FILE...: against KernelCI's KCIDB I/O schema v5.3 (docs/kcidb.schema.v5.3.json, docs/kcidb.md)
validate_kcidb() { validate_json_against docs/kcidb.schema.v5.3.json "$@"; }

# validate_html FILE: well-formed (the page is polyglot XHTML), parses as HTML, no external resource
validate_html() {
    xmllint --noout "$1" || return 1
    # libxml2's HTML parser predates HTML5: it knows neither inline SVG nor details/summary.
    local e
    e=$(xmllint --html --noout "$1" 2>&1 | grep -v 'Tag \(svg\|rect\|text\|line\|circle\|title\|details\|summary\) invalid' | grep -A2 'error' || true)
    [[ -z $e ]] || { echo "$e"; return 1; }
    if grep -Eo '(src|href)="[^"#][^"]*"|url\(|@import|<script|<link' "$1" | head -n 5 | grep .; then
        echo "external resource in $1"; return 1
    fi
}
