#!/usr/bin/env ruby
# SPDX-License-Identifier: GPL-2.0
#
# Reference values for kdelta's Ruby-compatible number formatting
# (src/output/rubyfmt.c): prints "SPEC<TAB>VALUE<TAB>RUBY'S OUTPUT" lines, VALUE
# as Ruby's shortest round-trip text.  Needs ruby (Debian: ruby); the
# committed testdata/render/rubyfmt-reference.txt was made with Ruby 3.1 as
#
#   ruby scripts/gen-rubyfmt-ref.rb 150 1 (with a 3-line comment on top)
#
# With COUNT large (scripts/check-rubyfmt.sh uses 100000 per format) it is
# the bulk check against a live Ruby.
#
# The values are what kdelta's LKP table prints: means of a few runs of
# whole or decimal numbers, percent changes between two such means, values
# next to a tie at the printed precision (0.35, 2.675, 1.005, ...), and
# random doubles, each in the range kdelta prints with that format.
# With --ulps first, values a few ulps (up to 40) from a tie of "%+.1f" and
# "%.2f", as a change or a mean computed from runs' values lands there
# ("+1.2500000000000002"): where Ruby's rounding and kdelta's model of it
# can part (testdata/render/rubyfmt-near-ties.txt, kdelta(1), LKP
# COMPATIBILITY).
ulps = ARGV.first == '--ulps' && ARGV.shift
count = Integer(ARGV[0] || 2000)
srand(Integer(ARGV[1] || 1))

if ulps
  %w[%+.1f %.2f].each do |spec|
    decimals = spec[/\.(\d+)/, 1].to_i
    count.times do
      unit = 10.0**-decimals
      x = (rand(0..(10**rand(1..4))) + 0.5) * unit
      rand(-40..40).then { |j| j.abs.times { x = j.negative? ? x.prev_float : x.next_float } }
      x = -x if rand < 0.5
      puts "#{spec}\t#{x}\t#{format(spec, x)}"
    end
  end
  exit
end

SPECS = ['%.2f', '%.1f', '%+.1f', '%+10.1f', '%10.2f', '%.0f', '%d',
         '%+.2g', '%.4g', '%10.4g', '%+10.2g'].freeze

# The magnitudes kdelta prints with each format (src/output/render-util.c): two
# decimals below 1000, one decimal below 100000, "%.4g" above 1e8, "%.2g"
# from 100000 on.  Beyond them Ruby's rounding is subtler than the model
# of src/output/rubyfmt.c (it is exact from 16 digits on), and kdelta never
# prints such numbers so.
LIMITS = { '%.2f' => [0, 1e3], '%10.2f' => [0, 1e3], '%.1f' => [0, 1e5],
           '%+.1f' => [0, 1e5], '%+10.1f' => [0, 1e5], '%.0f' => [0, 1e4],
           '%d' => [0, 1e12], '%+.2g' => [1e5, 1e200], '%+10.2g' => [1e5, 1e200],
           '%.4g' => [1e8, 1e20], '%10.4g' => [1e8, 1e20] }.freeze

def mean_of_runs(scale)
  n = rand(1..10)
  xs = Array.new(n) { (rand * scale).round(rand(0..3)) }
  xs.sum / n.to_f
end

def change(scale)
  a = mean_of_runs(10.0**rand(-3..9))
  b = a * (1 + (rand - 0.5) * scale / 50)
  a.zero? ? 0.0 : 100.0 * (b - a) / a
end

def near_tie(spec, scale)
  decimals = spec[/\.(\d+)/, 1].to_i
  unit = spec.end_with?('g') ? scale / 1000 : 10.0**-decimals
  k = rand(0..(scale / unit).to_i)
  ((k + 0.5) * unit * (rand < 0.5 ? 1 : -1)).round(decimals + 1)
end

def random_double(scale)
  (rand - 0.5) * scale * 10.0**-rand(0..8)
end

def value(spec, i)
  low, high = LIMITS.fetch(spec)
  scale = [high, 10.0**rand(-3..Math.log10(high).floor)].min
  x = case i % 4
      when 0 then mean_of_runs(scale)
      when 1 then change(scale)
      when 2 then near_tie(spec, scale)
      else random_double(scale)
      end
  x = x.abs < low ? (x.negative? ? -1 : 1) * (low + rand * (high - low)) : x
  x.abs >= high ? x / 10 : x
end

SPECS.each do |spec|
  count.times do |i|
    x = value(spec, i)
    puts "#{spec}\t#{x}\t#{format(spec, x)}"
  end
end
