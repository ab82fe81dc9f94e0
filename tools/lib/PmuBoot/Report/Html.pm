# PmuBoot::Report::Html: a self-contained page (--html): verdict, machine, thread x check grid, failures with
# evidence, known deviations, per-thread measurements as inline SVG plots.
package PmuBoot::Report::Html;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Log qw(cpu_ranges);
use PmuBoot::Report::Common qw(machine_lines grouped cpu_list min series);
our @EXPORT_OK = qw(html_report);

sub h { my $s = shift // ''; $s =~ s/&/&amp;/g; $s =~ s/</&lt;/g; $s =~ s/>/&gt;/g; $s =~ s/"/&quot;/g; return $s }

my %COLOUR = (pass => '#2e9e44', fail => '#d62728', skip => '#b8b8b8', todo => '#e8a317', todo_passed => '#1f77b4',
              missing => '#ffffff');

sub html_report {
    my ($run) = @_;
    my $v = $run->{verdict};
    my $h = '';
    $h .= "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>pmuboot report: " . h($run->{name}) . "</title>\n";
    $h .= "<style>\nbody{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}h1{font-size:1.5em;margin:.2em 0}"
        . "h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}.verdict{display:inline-block;padding:.25em .8em;"
        . "border-radius:4px;color:#fff;font-weight:bold;font-size:1.3em}.pass{background:#2e9e44}.fail{background:#d62728}"
        . ".incomplete{background:#8c564b}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
        . "table.kv th{color:#555;font-weight:normal}table.counts td{font-size:1.2em;font-weight:bold;text-align:center}"
        . "pre{background:#f6f6f6;padding:6px;overflow-x:auto;font-size:12px}.warn{background:#fdecea;border-left:4px solid #d62728;padding:.5em 1em}"
        . ".legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle;border:1px solid #999}"
        . ".plots{display:flex;flex-wrap:wrap;gap:12px}.plot{font-size:11px;width:300px}.grid{overflow-x:auto}code{font-size:12px}\n</style>\n</head>\n<body>\n";
    $h .= "<h1>pmuboot report: " . h($run->{name}) . "</h1>\n";
    $h .= "<p><span class=\"verdict $v\" id=\"verdict\">" . uc($v) . "</span></p>\n";
    my $c = $run->{counts};
    $h .= "<table class=\"counts\"><tr><th>passed</th><th>failed</th><th>skipped</th><th>TODO (expected failures)</th><th>threads</th><th>checks</th></tr>"
        . "<tr><td>$c->{passed}</td><td>$c->{failed}</td><td>$c->{skipped}</td><td>$c->{todo}</td><td>" . scalar(@{ $run->{threads} })
        . "</td><td>$c->{total}</td></tr></table>\n";
    unless ($run->{complete}) {
        $h .= "<div class=\"warn\"><p><b>The run is incomplete.</b> " . h(join('; ', @{ $run->{stream}{problems} })) . ".</p><p>It stopped at log line "
            . "$run->{stream}{last_line}" . ($run->{stream}{last_check} ? ", after check <code>" . h($run->{stream}{last_check}) . "</code>" : '') . ". "
            . scalar(@{ $run->{never_ran} }) . " known checks never ran (white cells in the grid)"
            . (@{ $run->{never_ran} } ? ": <code>" . h(join(' ', @{ $run->{never_ran} }[0 .. min(39, $#{ $run->{never_ran} })])) . (@{ $run->{never_ran} } > 40 ? ' …' : '') . "</code>" : '')
            . ". Suites after the cut are not known. Everything that ran is reported below.</p></div>\n";
    }
    $h .= "<h2>Machine</h2>\n<table class=\"kv\">" . join('', map { "<tr><th>" . h($_->[0]) . "</th><td>" . h($_->[1]) . "</td></tr>" } machine_lines($run)) . "</table>\n";
    if (@{ $run->{header}{pmu_lines} // [] }) {
        $h .= "<details><summary>PMU enumeration (cpu0)</summary><pre>" . h(join("\n", @{ $run->{header}{pmu_lines} })) . "</pre></details>\n";
    }
    # Hybrid parts: each other kind of core's enumeration, from the first thread of that kind.
    for my $g (grep { $_->{cpus}[0] != 0 } @{ $run->{header}{pmu_cores} // [] }) {
        $h .= "<details><summary>PMU enumeration (" . h(cpu_ranges($g->{cpus}) . ", $g->{core_type}") . ")</summary><pre>"
            . h(join("\n", @{ $g->{lines} })) . "</pre></details>\n";
    }
    $h .= grid_svg($run);
    # Run-once checks.
    my @g = grep { !defined $_->{cpu} } @{ $run->{checks} };
    if (@g) {
        $h .= "<h2>Run-once checks</h2>\n<p>" . join(' ', map {
            "<span title=\"" . h($_->{verdict} . ($_->{reason} ? ": $_->{reason}" : '')) . "\" style=\"white-space:nowrap\">"
            . "<svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"$COLOUR{ $_->{verdict} }\"/></svg> " . h("$_->{suite}/$_->{check}") . "</span> &#160;"
        } @g) . "</p>\n";
    }
    my @f = grep { $_->{verdict} eq 'fail' } @{ $run->{checks} };
    $h .= "<h2 id=\"failures\">Failures (" . scalar(@f) . ")</h2>\n";
    $h .= "<p>None.</p>\n" unless @f;
    my $shown = 0;
    for my $x (@f) {
        last if ++$shown > 200;
        $h .= "<h3><code>" . h($x->{name}) . "</code></h3>\n<pre>" . h(join("\n", $x->{raw}, @{ $x->{yaml} // [] })) . "</pre>\n";
    }
    $h .= "<p>… and " . (@f - 200) . " more (see the JSON or JUnit report).</p>\n" if @f > 200;
    my @todo = grouped($run, 'todo');
    $h .= "<h2>Known deviations and expected failures (TODO)</h2>\n";
    $h .= "<p>None.</p>\n" unless @todo;
    $h .= "<ul>\n" . join('', map { "<li><code>" . h($_->[0]{id}) . "</code> on " . h(cpu_list(@$_) || 'the boot CPU') . ": " . h($_->[0]{reason})
                                    . (@{ $_->[0]{yaml} // [] } ? "<pre>" . h(join("\n", @{ $_->[0]{yaml} })) . "</pre>" : '') . "</li>\n" } @todo) . "</ul>\n" if @todo;
    my @tp = grep { $_->{verdict} eq 'todo_passed' } @{ $run->{checks} };
    $h .= "<p>TODO checks that passed unexpectedly: " . h(join(', ', map { $_->{name} } @tp)) . "</p>\n" if @tp;
    my @skip = grouped($run, 'skip');
    $h .= "<h2>Skipped</h2>\n<details><summary>" . scalar(@skip) . " distinct reasons</summary><ul>\n"
        . join('', map { "<li><code>" . h($_->[0]{id}) . "</code> on " . h(cpu_list(@$_) || 'the boot CPU') . ": " . h($_->[0]{reason}) . "</li>\n" } @skip)
        . "</ul></details>\n" if @skip;
    $h .= plots_html($run);
    $h .= "<h2>Log</h2>\n<p>" . h($run->{file}) . ": TAP from line $run->{stream}{first_line} to $run->{stream}{last_line}; "
        . "$run->{pre_lines} lines before <code>TAP version 13</code> (firmware, boot loader); $run->{noise_count} other console lines inside the stream</p>\n";
    if (@{ $run->{noise} }) {
        $h .= "<details><summary>Console lines not from pmuboot</summary><pre>" . h(join("\n", map { "$_->{line}: $_->{text}" } @{ $run->{noise} })) . "</pre></details>\n";
    }
    $h .= "<pre>" . h(join("\n", map { "warning: $_" } @{ $run->{warnings} })) . "</pre>\n" if $run->{warnings};
    $h .= "</body>\n</html>\n";
    return $h;
}

# Thread x check grid: one row per per-CPU check, one column per thread; runs of equal verdicts are one
# rectangle, so 448 threads stay small. Hover (SVG <title>) names the threads and the verdict.
sub grid_svg {
    my ($run) = @_;
    my @threads = @{ $run->{threads} };
    my %tset = map { $_ => 1 } @threads;
    $tset{$_} = 1 for map { /^cpu(\d+)\// ? $1 : () } @{ $run->{never_ran} };
    @threads = sort { $a <=> $b } keys %tset;
    return "<h2>Threads × checks</h2><p>No per-thread checks.</p>\n" unless @threads;
    my (%ids, @ids, %cell);
    for my $c (grep { defined $_->{cpu} } @{ $run->{checks} }) {
        push @ids, $c->{id} unless $ids{ $c->{id} }++;
        $cell{"$c->{cpu}/$c->{id}"} = $c;
    }
    my $n = @threads;
    my $cw = $n <= 16 ? 16 : $n <= 64 ? 10 : $n <= 160 ? 5 : $n <= 320 ? 3 : 2;
    my $ch = 13;
    my $lw = 9 + 7 * (sort { $b <=> $a } map { length } @ids, 10)[0];
    my $sumw = 150;
    my $W = $lw + $cw * $n + 10 + $sumw;
    my $H = 28 + $ch * @ids + 4;
    my %col = map { $threads[$_] => $_ } 0 .. $#threads;
    my $s = "<h2>Threads × checks</h2>\n<p class=\"legend\">" . join('', map { "<span style=\"background:$COLOUR{$_}\"></span>" . ($_ eq 'missing' ? 'never ran' : $_ eq 'todo' ? 'TODO (expected failure)' : $_ eq 'todo_passed' ? 'TODO passed' : $_) } qw(pass fail skip todo todo_passed missing))
        . " — " . scalar(@ids) . " checks on $n threads; hover a cell for details</p>\n";
    $s .= "<div class=\"grid\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"$W\" height=\"$H\" font-family=\"monospace\" font-size=\"11\" role=\"img\" aria-label=\"thread by check verdict grid\">\n";
    # Thread axis: a label every k threads.
    my $step = 1;
    $step *= 2 while $step * $cw < 28;
    for (my $i = 0; $i < $n; $i += $step) {
        my $x = $lw + $i * $cw;
        $s .= "<text x=\"$x\" y=\"12\" font-size=\"9\">$threads[$i]</text><line x1=\"$x\" y1=\"15\" x2=\"$x\" y2=\"24\" stroke=\"#999\"/>";
    }
    $s .= "<text x=\"" . ($lw + $cw * $n + 10) . "\" y=\"22\" font-size=\"10\">pass/fail/skip/todo</text>\n";
    for my $r (0 .. $#ids) {
        my $id = $ids[$r];
        my $y = 28 + $r * $ch;
        $s .= "<text x=\"0\" y=\"" . ($y + 10) . "\">" . h($id) . "</text>";
        my ($start, $prev, %cnt);
        my $flush = sub {
            my ($i) = @_;
            return unless defined $start;
            my $x = $lw + $start * $cw;
            my $w = ($i - $start) * $cw - ($cw > 4 ? 1 : 0);
            $w = $cw if $w <= 0;
            my $first = $threads[$start];
            my $last = $threads[$i - 1];
            my $who = $first == $last ? "cpu$first" : "cpu$first-$last";
            my $label = $prev eq 'missing' ? 'never ran' : $prev;
            my $reason = '';
            if ($first == $last && (my $c = $cell{"$first/$id"})) { $reason = $c->{reason} ? ": $c->{reason}" : '' }
            $s .= "<rect x=\"$x\" y=\"$y\" width=\"$w\" height=\"" . ($ch - 2) . "\" fill=\"$COLOUR{$prev}\"" . ($prev eq 'missing' ? ' stroke="#bbb"' : '')
                . "><title>" . h("$who $id: $label$reason") . "</title></rect>";
        };
        for my $i (0 .. $n - 1) {
            my $c = $cell{"$threads[$i]/$id"};
            my $v = $c ? $c->{verdict} : 'missing';
            $cnt{$v}++;
            if (!defined $prev || $v ne $prev || ($v eq 'fail')) { $flush->($i); $start = $i; $prev = $v }
        }
        $flush->($n);
        $s .= "<text x=\"" . ($lw + $cw * $n + 10) . "\" y=\"" . ($y + 10) . "\" font-size=\"10\">" . join('/', map { $cnt{$_} // 0 } qw(pass fail skip todo))
            . ($cnt{missing} ? " ($cnt{missing} never ran)" : '') . "</text>\n";
    }
    $s .= "</svg></div>\n";
    return $s;
}

sub fmt_num {
    my ($v) = @_;
    return sprintf('%.3g', $v) if abs($v) < 1000 && $v != int($v);
    return "$v" if abs($v) < 1e6;
    return sprintf('%.4g', $v);
}

sub plots_html {
    my ($run) = @_;
    my @series = grep { @{ $_->{points} } >= 1 } series($run);
    return '' unless @series;
    my $out = "<h2>Measurements per thread</h2>\n<p>Observed value on each thread (dots). Where the check states one, the expected value "
            . "is the dashed line and the shaded band its tolerance, drawn when it fits the scale.</p>\n<div class=\"plots\">\n";
    for my $s (@series) {
        my @p = @{ $s->{points} };
        my ($W, $H, $L, $B) = (300, 90, 46, 16);
        my @vals = map { $_->{value} } @p;
        my ($lo, $hi) = (sort { $a <=> $b } @vals)[0, -1];
        my @band;
        my ($ex) = grep { defined $_->{expected} } @p;
        if ($ex) {
            my $t = $ex->{tolerance} // 0;
            @band = ($ex->{expected} - $t, $ex->{expected} + $t, $ex->{expected});
            my $span = ($hi - $lo) || abs($hi) || 1;
            # Include the expected value (and the band) only if it does not squash the data.
            if ($band[2] >= $lo - 2 * $span && $band[2] <= $hi + 2 * $span) { $lo = $band[2] if $band[2] < $lo; $hi = $band[2] if $band[2] > $hi }
        }
        if ($hi == $lo) { $hi += abs($hi) * 0.01 || 1; $lo -= abs($lo) * 0.01 || 1 }
        my $pad = ($hi - $lo) * 0.1;
        ($lo, $hi) = ($lo - $pad, $hi + $pad);
        my @cpus = map { $_->{cpu} } @p;
        my ($c0, $c1) = (sort { $a <=> $b } @cpus)[0, -1];
        my $xs = sub { $L + ($c1 == $c0 ? ($W - $L - 6) / 2 : ($_[0] - $c0) / ($c1 - $c0) * ($W - $L - 6)) };
        my $ys = sub { my $y = 4 + ($hi - $_[0]) / ($hi - $lo) * ($H - $B - 4); $y < 0 ? 0 : $y > $H - $B ? $H - $B : $y };
        my $svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"$W\" height=\"$H\" font-size=\"9\" font-family=\"sans-serif\">";
        $svg .= "<rect x=\"$L\" y=\"0\" width=\"" . ($W - $L) . "\" height=\"" . ($H - $B) . "\" fill=\"#fafafa\" stroke=\"#ccc\"/>";
        if (@band) {
            my ($y1, $y2) = ($ys->($band[1]), $ys->($band[0]));
            $svg .= sprintf("<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#2e9e44\" opacity=\"0.12\"/>", $L, $y1, $W - $L, $y2 - $y1) if $y2 > $y1;
            my $ye = $ys->($band[2]);
            $svg .= sprintf("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#2e9e44\" stroke-dasharray=\"3,2\"/>", $L, $W, $ye, $ye)
                if $band[2] >= $lo && $band[2] <= $hi;
        }
        $svg .= sprintf("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", $L - 3, $ys->($hi - $pad) + 3, h(fmt_num($hi - $pad)));
        $svg .= sprintf("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", $L - 3, $ys->($lo + $pad) + 3, h(fmt_num($lo + $pad)));
        $svg .= "<text x=\"$L\" y=\"" . ($H - 4) . "\">cpu$c0</text><text x=\"$W\" y=\"" . ($H - 4) . "\" text-anchor=\"end\">cpu$c1</text>";
        my $r = @p > 100 ? 1.2 : 2.5;
        for my $q (@p) {
            $svg .= sprintf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"#1f4e9e\"><title>cpu%d: %s %s</title></circle>",
                            $xs->($q->{cpu}), $ys->($q->{value}), $r, $q->{cpu}, $q->{value}, h($s->{unit}));
        }
        $svg .= "</svg>";
        my $cap = h($s->{title}) . " [" . h($s->{unit}) . "]";
        $cap .= "<br/>expected " . h(fmt_num($ex->{expected})) . (defined $ex->{tolerance} ? " ± " . h(fmt_num($ex->{tolerance})) : '') if $ex;
        $out .= "<div class=\"plot\">$svg<br/>$cap</div>\n";
    }
    return $out . "</div>\n";
}

1;
