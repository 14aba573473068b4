#!/usr/bin/env ruby
# SPDX-License-Identifier: GPL-2.0
#
# lkp-tests' own compare, run on matrices: the oracle that kdelta's
# "--format lkp" and "--test lkp" are checked against (scripts/lkp-oracle.sh).
# Needs ruby, ruby-activesupport and an lkp-tests work tree in LKP_SRC; this
# file holds none of lkp-tests' code, it only calls it.
#
#   compare.rb [--all | --keys] MATRIX.json[.gz]... | COMMIT_DIR...
#
# A commit directory of a kdelta store is read as lkp-tests reads its own
# result roots: its load_json of DIR/matrix.json (which takes
# matrix.json.gz; it runs zcat through the tty-command gem, Debian's
# ruby-tty-command, not the stub) and matrix_fill_missing_zeros.
# The first matrix is the base.  Prints lkp-tests' table for the group
# (--all: a row for every stat, as "ncompare -a"), or with --keys the stats
# lkp-tests calls changed in each column: "<column>\t<stat>" lines, column
# 1 the first after the base, sorted.
require 'json'
require 'zlib'

LKP_SRC = ENV.fetch('LKP_SRC')
require "#{LKP_SRC}/lib/compare"
require "#{LKP_SRC}/lib/matrix"

# A result root that is one matrix file and one commit axis.
class OracleRoot
  include CMResultRoot
  attr_reader :axes

  def initialize(path, label)
    if File.directory?(path)
      @matrix = matrix_fill_missing_zeros(load_json("#{path}/matrix.json"))
      raise "#{path}: lkp-tests read no matrix" unless @matrix['stats_source']
    else
      text = path.end_with?('.gz') ? Zlib::GzipReader.open(path, &:read) : File.read(path)
      # As its result roots read their matrix.json (NMResultRoot#matrix).
      @matrix = matrix_fill_missing_zeros(JSON.parse(text))
    end
    @axes = { 'commit' => label }
  end

  # lkp-tests changes what it is given: a fresh copy each time.
  def matrix
    Marshal.load(Marshal.dump(@matrix))
  end

  def to_s
    @axes['commit']
  end
end

# What lkp-tests' compare calls changed in each column: the keys of each
# call of its _get_changed_stats, which compares one column with the base,
# one call a column in their order (watched, not changed).
$column_keys = []
alias lkp_get_changed_stats _get_changed_stats
def _get_changed_stats(a, b, options)
  changed = lkp_get_changed_stats(a, b, options)
  $column_keys << (changed ? changed.keys : [])
  changed
end

mode = ARGV.first&.start_with?('--') ? ARGV.shift : nil
roots = ARGV.each_with_index.map { |path, i| OracleRoot.new(path, "v#{i}") }
comparer = Compare::Comparer.new
comparer.set_mresult_roots(roots)
        .set_sort_mresult_roots(false)
        .set_compare_axis_keys(['commit'])
comparer.set_use_all_stat_keys(true) if mode == '--all'
if mode == '--keys'
  comparer.compare_groups.each do |group|
    group.changed_stat_keys
  end
  $column_keys.each_with_index do |keys, i|
    keys.sort.each { |k| puts "#{i + 1}\t#{k}" }
  end
else
  comparer.compare
end
