# PmuBoot::Report::Codes: a run from the QR codes of its final screen (docs/screen.md): photos read by zbarimg, or
# files of the codes' bytes; every code "k of n" of one run, none corrupted, or the program ends saying which.
# The codes' bytes inflate to the run's TAP stream, read by PmuBoot::Log like a serial log.
package PmuBoot::Report::Codes;
use strict;
use utf8;
use warnings;
use Exporter 'import';
use PmuBoot::Log qw(fatal load_run);
our @EXPORT_OK = qw(load_run_from_codes);

# The codes' bytes of one image, as zbarimg reads them: --raw -Sbinary writes each symbol's bytes as they are, one
# after the other (the codes' own headers and lengths separate them).
sub zbar_image {
    my ($img) = @_;
    fatal("'$img': no such file") unless -e $img;
    fatal("'$img' is a directory, not an image") if -d $img;
    my $pid = open(my $fh, '-|') // fatal("cannot run zbarimg: $!");
    if (!$pid) {
        open STDERR, '>', '/dev/null';
        exec 'zbarimg', '--raw', '-q', '-Sbinary', '--', $img;
        exit 127;
    }
    binmode $fh;
    local $/;
    my $data = <$fh> // '';
    close $fh;
    my $st = $? >> 8;
    fatal("zbarimg is not installed (Debian: apt-get install zbar-tools)") if $st == 127;
    fatal("zbarimg could not read '$img' as an image (status $st)") if $st != 0 && $st != 4;
    return $data;   # status 4: no code found in it
}

# Every pmuboot code in one image's (or file's) bytes: { k, n, crc, part, source } or an error for the rest.
sub parse_codes {
    my ($data, $source, $codes, $problems) = @_;
    my $pos = 0;
    my ($found, $bad) = (0, 0);
    while ($pos < length $data) {
        my $at = index($data, "PMB", $pos);
        if ($at < 0) {
            push @$problems, "$source: " . (length($data) - $pos) . " bytes that are not a pmuboot code (a foreign QR code?)" if !$found && !$bad;
            last;
        }
        push @$problems, "$source: $at bytes before a pmuboot code that are not one (a foreign QR code?)" if $at > $pos && !$found;
        if ($at + 16 > length $data) { push @$problems, "$source: a code cut short (corrupted)"; last }
        my ($fmt, $k, $n, $crc, $len) = unpack('C C C N n', substr($data, $at + 3, 9));
        if ($fmt != 1) { push @$problems, "$source: a code in format $fmt, not 1 (another pmuboot version?)"; $pos = $at + 3; next }
        if ($at + 16 + $len > length $data) { push @$problems, "$source: code $k of $n cut short (corrupted)"; last }
        my $whole = substr($data, $at, 12 + $len);
        my $sum = unpack('N', substr($data, $at + 12 + $len, 4));
        if (Compress::Zlib::crc32($whole) != $sum || $k < 1 || $k > $n) {
            push @$problems, sprintf("%s: code %d of %d is corrupted (its checksum does not match)", $source, $k, $n);
            $bad++;
            $pos = $at + 3;
            next;
        }
        push @$codes, { k => $k, n => $n, crc => $crc, part => substr($whole, 12), source => $source };
        $found++;
        $pos = $at + 16 + $len;
    }
    return $found;
}

sub load_run_from_codes {
    my ($files, $images, $partial, $name) = @_;
    require Compress::Zlib;
    my (@codes, @problems);
    for my $f (@$files) {
        my $data;
        if ($images) { $data = zbar_image($f) }
        else {
            fatal("'$f': no such file") unless -e $f;
            open my $fh, '<:raw', $f or fatal("cannot read '$f': $!");
            local $/;
            $data = <$fh> // '';
        }
        push @problems, "$f: no pmuboot QR code found in it" if !length $data;
        parse_codes($data, $f, \@codes, \@problems) if length $data;
    }
    fatal(join("\n${PmuBoot::Log::PROG}: ", 'no pmuboot QR code in ' . join(' ', @$files), @problems)) unless @codes;
    # One run: the codes of the run most codes belong to; a code of another run (another checksum) is an error.
    my %runs;
    push @{ $runs{ sprintf '%08x/%d', $_->{crc}, $_->{n} } }, $_ for @codes;
    my ($key) = sort { @{ $runs{$b} } <=> @{ $runs{$a} } || $a cmp $b } keys %runs;
    for my $other (grep { $_ ne $key } sort keys %runs) {
        my ($crc, $n) = split m{/}, $other;
        push @problems, "$_->{source}: code $_->{k} of $n belongs to another run (checksum $crc, not " . (split m{/}, $key)[0] . ")"
            for @{ $runs{$other} };
    }
    my ($crc_hex, $n) = split m{/}, $key;
    my %have;
    for my $c (@{ $runs{$key} }) {
        push @problems, "code $c->{k} of $n read twice ($have{$c->{k}}{source}, $c->{source}) with different bytes"
            if $have{ $c->{k} } && $have{ $c->{k} }{part} ne $c->{part};
        $have{ $c->{k} } //= $c;
    }
    my @missing = grep { !$have{$_} } 1 .. $n;
    push @problems, "missing code" . (@missing > 1 ? 's ' : ' ') . join(', ', @missing) . " of $n (found " .
                    join(', ', sort { $a <=> $b } keys %have) . ")" if @missing;
    my $only_missing = @missing && @problems == 1;
    if (@problems && !($partial && $only_missing)) {
        fatal(join("\n${PmuBoot::Log::PROG}: ", 'the QR codes do not make a whole run:', @problems)
              . ($only_missing ? "\n${PmuBoot::Log::PROG}: --partial reports what the codes before the first missing one hold" : ''));
    }
    my $packed = join '', map { $have{$_}{part} } grep { $_ < ($missing[0] // $n + 1) } 1 .. $n;
    my ($inf) = Compress::Zlib::inflateInit() or fatal('zlib: inflateInit failed');
    my ($text, $st) = $inf->inflate($packed);
    $text //= '';
    if (!@missing) {
        fatal("the codes' stream does not inflate (zlib: $st)") unless $st == Compress::Zlib::Z_STREAM_END();
        fatal(sprintf "the codes' stream is not the run's (checksum %08x, the codes say %s)", Compress::Zlib::crc32($text), $crc_hex)
            if sprintf('%08x', Compress::Zlib::crc32($text)) ne $crc_hex;
    } else {
        $text =~ s/[^\n]*\z//;   # a line cut by the missing code is left out
    }
    utf8::decode($text);
    my $label = @$files == 1 ? $files->[0] : "$files->[0] and " . (@$files - 1) . " more";
    my $run = load_run("qr:" . join(',', @$files), $name // ($label =~ s{.*/}{}r), $text);
    unshift @{ $run->{warnings} }, "read from $n QR code" . ($n > 1 ? 's' : '') . " ($label): the evidence of checks that did not fail is in the serial log only";
    unshift @{ $run->{warnings} }, "--partial: code" . (@missing > 1 ? 's ' : ' ') . join(', ', @missing) . " of $n missing: the run is read up to code $missing[0]"
        if @missing;
    return $run;
}

1;
