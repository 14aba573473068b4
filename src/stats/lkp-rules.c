// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' decision on a stat, rebuilt from facts: the data files it
 * ships (lists of stat patterns and thresholds, copied below as tables,
 * each saying which file it comes from; intel/lkp-tests at commit
 * bbbc29c495d9, 2026), and its documented and observed behaviour, checked
 * against lkp-tests' own compare by scripts/lkp-oracle.sh.
 *
 * The decision, for a stat in a base and another result:
 *  1. Not compared at all when lkp-tests' stat denylist matches it and
 *     neither its stat allowlist nor its report allowlist does (so every
 *     slabinfo.* stat is ignored, and most of dmesg.bootstage*).
 *  2. A failure stat named .fail/.error/.warn needs a .pass of the same
 *     test in the base, and a .pass needs one of those (dmesg.*, kmsg.*,
 *     last_state.*, stderr.* excepted).  Any other stat needs 3 runs on
 *     one side at least, and must be in the base (perf-profile.* and
 *     lock_stat.* may be absent when their monitor is there).
 *  3. Each side's runs, absent ones as 0, are sorted (a leading -1, "no
 *     data", dropped) and trimmed by 1/32 at each end (at most 3, at most
 *     1 of the other side's when the base has 3 runs or fewer; failure
 *     stats not at all), and summarized as min, middle element and max.
 *     A failure stat changed when the maxima differ; any other stat when
 *     the sides' intervals are apart (stats.c, lkp_changed()).
 *  4. Then the middles: the larger over the smaller (5 when the smaller is
 *     not positive, at most 5) must be above 1.01, and above 1.05 unless
 *     the stat is a performance metric; perf-profile.* is exempt.
 *  5. And the change must be "reasonable": the first of lkp-tests'
 *     per-metric thresholds that matches the name wants the larger maximum
 *     at least the threshold and, for whole thresholds, the middles at
 *     least half of it apart; without one, iostat.* needs a maximum above
 *     1, slabinfo/buddyinfo/pagetypeinfo a difference above 100,
 *     proc-vmstat.* and *meminfo* a maximum above 1000, interrupts.* and
 *     softirqs.* above 10000, lock_stat.* a difference above 1000 (times)
 *     or 10000.
 *
 * lkp-tests compares a perf-profile.* stat by a threshold instead when
 * the middle value of the compared side is a Ruby Integer (written "0",
 * not "0.0", or a run padded for a stat it lacks): kdelta knows when all
 * of a side's values were written as integers, or the stat is absent
 * there; a side that mixes both is taken as Floats.
 */
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/lkp-rules.h"
#include "kdelta/stats.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* lkp-tests' cap of the ratio of the middles. */
#define LKP_MAX_RATIO 5.0

/* The stats lkp-tests does not bisect: etc/stat-denylist. */
static const char *const stat_denylist[] = {
	"Modules_linked_in",
	"Spectre_v2_mitigation",
	"^aim7\\.cpu",
	"^aim7\\.jobs-per-min-per-task",
	"^aim7\\.jti",
	"^aim7\\.real",
	"^boot-meminfo\\.",
	"^boot-slabinfo\\.",
	"^boot-time\\.",
	"^buddyinfo\\.",
	"^cpuidle\\.",
	"^diskstats\\.",
	"^dmesg\\.(E|R)IP:acpi_safe_halt",
	"^dmesg\\.(E|R)IP:cpumask_next",
	"^dmesg\\.(E|R)IP:debug_check_no_locks_freed",
	"^dmesg\\.(E|R)IP:enable_slot",
	"^dmesg\\.(E|R)IP:fb_deferred_io_init",
	"^dmesg\\.(E|R)IP:ida_free",
	"^dmesg\\.(E|R)IP:kallsyms_init",
	"^dmesg\\.(E|R)IP:kprobe_trace_self_tests_init",
	"^dmesg\\.(E|R)IP:kthread_should_stop",
	"^dmesg\\.(E|R)IP:nand_scan_tail",
	"^dmesg\\.(E|R)IP:nand_scan_with_ids",
	"^dmesg\\.(E|R)IP:nand_set_ecc_soft_ops",
	"^dmesg\\.(E|R)IP:ops_alloc_init",
	"^dmesg\\.(E|R)IP:qlist_free_all",
	"^dmesg\\.(E|R)IP:rcu_torture_fwd_prog\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_fwd_prog_cr\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_writer\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:refcount_warn_saturate",
	"^dmesg\\.(E|R)IP:ref_tracker_dir_exit",
	"^dmesg\\.(E|R)IP:ref_tracker_free",
	"^dmesg\\.(E|R)IP:ring_buffer_alloc_read_page",
	"^dmesg\\.(E|R)IP:smp_call_function_many_cond",
	"^dmesg\\.(E|R)IP:stack_access_ok",
	"^dmesg\\.(E|R)IP:synchronize_rcu_trivial\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:__list_del_entry_valid\\.cold",
	"^dmesg\\.(E|R)IP:__x86_indirect_thunk_array",
	"^dmesg\\..*/lkp/",
	"^dmesg\\..*cpu_clock_throttled.*",
	"^dmesg\\..+_login:BUG:kernel_hang_in_test_stage",
	"^dmesg\\.backtrace",
	"^dmesg\\.Bad_pagetable:#.\\[##\\]",
	"^dmesg\\.bootstage",
	"^dmesg\\.bootstage:.*",
	"^dmesg\\.boot_failures",
	"^dmesg\\.boot_successes",
	"^dmesg\\.BUG:Bad_rss-counter_state_mm:#type:MM_FILEPAGES_val",
	"^dmesg\\.BUG:Dentry.*i=.*n=.*",
	"^dmesg\\.BUG:KASAN:slab-out-of-bounds_in_resiliency_test",
	"^dmesg\\.BUG:KASAN:slab-out-of-bounds_in_test_clobber_zone",
	"^dmesg\\.BUG:KASAN:slab\\-out\\-of\\-bounds_in_acpi_power_up_if_adr_present",
	"^dmesg\\.BUG:KCSAN:assert:race_in",
	"^dmesg\\.BUG:KCSAN:data\\-race_in#/",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ftrace_likely_update/ftrace_likely_update",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ktime_get/timekeeping_advance",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ktime_get_update_offsets_now/timekeeping_advance",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_tick_nohz_next_event/tick_nohz_stop_tick",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_tick_nohz_next_event/tick_sched_do_timer",
	"^dmesg\\.BUG:kernel_hang_in_test_stage",
	"^dmesg\\.BUG:kernel_in_stage",
	"^dmesg\\.BUG:KFENCE",
	"^dmesg\\.BUG:TASK_stack_guard_page_was_hit_at\\(____ptrval____\\)\\(stack_is\\(____ptrval____\\)\\.\\.\\(____ptrval____\\)\\)",
	"^dmesg\\.BUG:using__this_cpu_read\\(\\)in_preemptible\\[#\\]code",
	"^dmesg\\.BUG:workqueue_lockup-pool",
	"^dmesg\\.BUG_TestSlub_.*",
	"^dmesg\\.calltrace",
	"^dmesg\\.drm:intel_acpi_device_id_update.*",
	"^dmesg\\.inconsistent\\{HARDIRQ\\-ON\\-W\\}\\-",
	"^dmesg\\.inconsistent\\{IN\\-HARDIRQ\\-W\\}\\-",
	"^dmesg\\.INFO:NMI_handler.*took_too_long_to_run:",
	"^dmesg\\.INFO:Slab0x\\(____ptrval____\\)objects=#used=#fp=0x\\((null|____ptrval____)\\)flags=",
	"^dmesg\\.INFO:Stall_ended_before_state_dump_start",
	"^dmesg\\.invoked_oom-killer:gfp_mask=0x",
	"^dmesg\\.IP-Config:Auto-configuration_of_network_failed",
	"^dmesg\\.kernel_BUG_at_drivers/misc/lkdtm/bugs.c",
	"^dmesg\\.kernel_BUG_at_kernel/entry/common\\.c",
	"^dmesg\\.kernel_BUG_at_net/core/skbuff\\.c",
	"^dmesg\\.Kernel_panic\\-not_syncing:Failed_to_register_CPU_subsystem",
	"^dmesg\\.Kernel_panic\\-not_syncing:security_add_hooks_Too_many_LSMs_registered",
	"^dmesg\\.Kernel_panic\\-not_syncing:System_is_deadlocked_on_memory",
	"^dmesg\\.Kernel_panic\\-not_syncing:XSAVE_has_to_be_disabled_as_it_is_not_supported_by_this_module",
	"^dmesg\\.kobject\\(.+#\\):tried_to_init_an_initialized_object",
	"^dmesg\\.kobject\\(\\(_+ptrval_+\\)\\):tried_to_init_an_initialized_object",
	"^dmesg\\.Mem-Info",
	"^dmesg\\.net/mac80211/util\\.c:#RCU\\-list_traversed_in_non\\-reader_section",
	"^dmesg\\.net/netfilter/ipset/ip_set_core\\.c:#RCU\\-list_traversed_in_non\\-reader_section",
	"^dmesg\\.of-unittest",
	"^dmesg\\.Out_of_memory_and_no_killable_processes",
	"^dmesg\\.page_allocation_failure",
	"^dmesg\\.refcount_t:underflow;use-after-free",
	"^dmesg\\.sysctl_could_not_get_directory",
	"^dmesg\\.sysctl_table_check_failed",
	"^dmesg\\.timestamp:.*",
	"^dmesg\\.UBSAN:shift\\-out\\-of\\-bounds_in_lib/test_scanf\\.c",
	"^dmesg\\.UBSAN:signed-integer-overflow.*",
	"^dmesg\\.unittest\\.of_unittest_overlay_high_level\\(\\)_overlay_base_root_not_initialized\\.fail",
	"^dmesg\\.unittest\\.of_unittest_pci_node\\(\\)_No_test_PCI_device_been_found\\._Please_run_QEMU_with_'\\-device_pci\\-testdev'\\.fail",
	"^dmesg\\.unittest\\.of_unittest_pci_node\\(\\)_No_test_PCI_device_been_found\\._Please_run_QEMU_with_\\-device_pci\\-testdev\\.fail",
	"^dmesg\\.WARNING:at_arch/x86/kernel/cpu/aperfmperf\\.c:#freq_invariance_enable",
	"^dmesg\\.WARNING:at_arch/x86/kernel/cpu/cpuid-deps\\.c:#do_clear_cpu_cap",
	"^dmesg\\.WARNING:at_arch/x86/kernel/module\\.c:#apply_relocate_add",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/drm_fb_helper\\.c:#drm_fb_helper_damage_work\\[drm_kms_helper\\]",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/drm_mode_object.c:#drm_object_attach_property",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/i915/intel_runtime_pm\\.c:#intel_runtime_pm_driver_release\\[i915\\]",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base.c:#nand_scan_tail",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base\\.c:#nand_scan_with_ids",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base\\.c:#nand_set_ecc_soft_ops",
	"^dmesg\\.WARNING:at_drivers/thermal/thermal_sysfs\\.c:#cooling_device_stats_setup",
	"^dmesg\\.WARNING:at_fs/notify/mark\\.c:#__fsnotify_recalc_mask",
	"^dmesg\\.WARNING:at_include/linux/cpumask\\.h",
	"^dmesg\\.WARNING:at_kernel/irq/manage.c:#request_threaded_irq",
	"^dmesg\\.WARNING:at_kernel/kallsyms\\.c:#kallsyms_init",
	"^dmesg\\.WARNING:at_kernel/kcsan/kcsan_test.c:#test_init",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcutorture_oom_notify",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcu_torture_writer",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcu_torture_writer\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_fwd_prog\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_fwd_prog_cr",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_stats_print\\.cold\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#synchronize_rcu_trivial\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/tree\\.c:#synchronize_rcu",
	"^dmesg\\.WARNING:at_kernel/rcu/tree_exp\\.h:#synchronize_rcu_expedited",
	"^dmesg\\.WARNING:at_kernel/sched/topology\\.c:#sd_init",
	"^dmesg\\.WARNING:at_kernel/time/clocksource\\-wdtest\\.c:#wdtest_func",
	"^dmesg\\.WARNING:at_kernel/trace/trace_kprobe\\.c:#kprobe_trace_self_tests_init",
	"^dmesg\\.WARNING:at_lib/dynamic_debug\\.c:#ddebug_add_module",
	"^dmesg\\.WARNING:at_lib/idr\\.c:#ida_free",
	"^dmesg\\.WARNING:at_lib/refcount\\.c:#refcount_warn_saturate",
	"^dmesg\\.WARNING:at_lib/refcount\\.c:#stack_depot_dec_count",
	"^dmesg\\.WARNING:at_lib/ref_tracker\\.c:#ref_tracker_dir_exit",
	"^dmesg\\.WARNING:at_lib/ref_tracker\\.c:#ref_tracker_free",
	"^dmesg\\.WARNING:at_mm/debug_vm_pgtable\\.c:#hugetlb_basic_tests",
	"^dmesg\\.WARNING:at_mm/debug_vm_pgtable\\.c:#pmd_basic_tests",
	"^dmesg\\.WARNING:at_net/sysctl_net\\.c:#register_net_sysctl",
	"^dmesg\\.WARNING:at_samples/ftrace/ftrace\\-ops\\.c:#ops_alloc_init",
	"^dmesg\\.WARNING:CPU:#PID:#at_rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.WARNING:CPU:#PID:#at_refcount_warn_saturate",
	"^dmesg\\.WARNING:event.*not_valid.*not_supported_by_kernel",
	"^dmesg\\.WARNING:missing_R10_value_at__fsnotify_parent",
	"^dmesg\\.WARNING:possible_circular_locking_dependency_detected_chmod_is_trying_to_acquire_lock:at:console_lock_spinning_enable_but_task_is_already_holding_lock:at:tty_insert_flip_string_and_push_buffer.*",
	"^dmesg\\.WARNING:Spectre_v2_mitigation_leaves_CPU_vulnerable_to_RETBleed_attacks,data_leaks_possible",
	"^dmesg\\.WARNING:Unprivileged_eBPF_is_enabled_with_eIBRS_on,data_leaks_possible_via_Spectre_v2_BHB_attacks",
	"^ebizzy\\.throughput\\.per_thread\\.stddev_percent",
	"^GLib-WARNING\\*\\*:#:#:#:gmem.c:#:custom_memory_allocation_vtable_not_supported",
	"^interrupts\\.",
	"^iostat\\.",
	"^kernel\\-selftests\\.dma\\.dma_map_benchmark\\.average_map_latency",
	"^kernel\\-selftests\\.mqueue\\.nsec_per_msg",
	"^kmsg\\.(C|T)[0-9]{1,5}\\]",
	"^kmsg\\.attempting_acpi",
	"^kmsg\\.blk_update_request:I/O_error,dev_fd#,sector#op#:\\(READ\\)flags#phys_seg#prio_class",
	"^kmsg\\.Bluetooth:hci#:",
	"^kmsg\\.bochs-drm#:#:#:\\[drm:drm_fbdev_client_hotplug\\[drm_kms_helper\\]\\].*ERROR.*fbdev:Failed_to_setup_generic_emulation",
	"^kmsg\\.bochs-drm#:#:#:\\[drm:drm_fbdev_client_hotplug\\].*ERROR.*fbdev:Failed_to_setup_generic_emulation",
	"^kmsg\\.bootstage:.*",
	"^kmsg\\.CR0:actual=#,shadow=#,gh_mask=",
	"^kmsg\\.CR0=#CR3=#CR4=",
	"^kmsg\\.CR4:actual=#,shadow=#,gh_mask=",
	"^kmsg\\.CS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.CS=#SS=#DS=#ES=#FS=#GS=#TR=",
	"^kmsg\\.DebugCtl=#DebugExceptions=",
	"^kmsg\\.Disabling_IRQ",
	"^kmsg\\.driver_probe_device",
	"^kmsg\\.DS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.EFER=#PAT=",
	"^kmsg\\.EntryControls=#ExitControls=",
	"^kmsg\\.EPT_pointer=",
	"^kmsg\\.ES:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.ExceptionBitmap=#PFECmask=#PFECmatch=",
	"^kmsg\\.File:/fs/vda-diotest_PID:#Comm:dio-invalidate",
	"^kmsg\\.Firmware_Bug\\]:the_BIOS_has_corrupted_hw-PMU_resources",
	"^kmsg\\.FS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.FSBase=#GSBase=#TRBase=",
	"^kmsg\\.fuse:Bad_value_for'subtype'",
	"^kmsg\\.GDTBase=#IDTBase=",
	"^kmsg\\.GDTR:limit=#,base=",
	"^kmsg\\.gpio_it87:no_device",
	"^kmsg\\.GS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.handlers",
	"^kmsg\\.Hardware_name:Dell_Inc\\.OptiPlex#/#DNKMN,BIOS_A05",
	"^kmsg\\.Hardware_name:Dell_Inc\\.OptiPlex#/#Y7WYT,BIOS",
	"^kmsg\\.Hardware_name:HP_HP_Z238_Microtower_Workstation,BIOS_N51_Ver",
	"^kmsg\\.Host_State\\*\\*\\*",
	"^kmsg\\.IDTR:limit=#,base=",
	"^kmsg\\.ioatdma#:#:#:",
	"^kmsg\\.irq#:nobody_cared",
	"^kmsg\\.L1TF:Kernel_not_compiled_for_PAE.No_mitigation_for_L1TF",
	"^kmsg\\.LDTR:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.legacy_IDE_will_be_removed_in#,please_switch_to_libata",
	"^kmsg\\.mac80211_hwsim_hwsim",
	"^kmsg\\.Memory_failure:#:non_anonymous_thp",
	"^kmsg\\.Memory_failure:#:Sending_SIGBUS_to",
	"^kmsg\\.mem_dump_obj\\(#\\):#\\-page_vmalloc_region_starting_at#allocated_at_copy_process",
	"^kmsg\\.mem_dump_obj\\(#\\):slab",
	"^kmsg\\.msi_wmi:This_machine_doesn't_have_neither_MSI-hotkeys_nor_backlight_through_WMI",
	"^kmsg\\.nd_region_region#:nmem#:is_locked,failing_probe",
	"^kmsg\\.nouveau#:#:#:disp:ERROR#\\[PUSHBUFFER_ERR\\]#\\[\\]chid#mthd#data",
	"^kmsg\\.nvme#:Admin_Cmd\\(#\\),I/O_Error\\(sct#/sc#\\)MORE",
	"^kmsg\\.obsolete_checksetup",
	"^kmsg\\.pciehp#:b1:#:pcie004:Slot\\(.*\\):Power_fault",
	"^kmsg\\.PLE_Gap=#Window=",
	"^kmsg\\.power_meter_ACPI000D:#:hwmon_device_register\\(\\)is_deprecated.Please_convert_the_driver_to_use_hwmon_device_register_with_info\\(\\)",
	"^kmsg\\.print_req_error:I/O_error,dev_.*,sector#flags",
	"^kmsg\\.print_req_error:I/O_error,dev_loop#,sector#flags",
	"^kmsg\\.rcu:End-test_grace-period_state",
	"^kmsg\\.rcu_torture_fwd_prog_nr:#Duration#cver#gps",
	"^kmsg\\.RFLAGS=#DR7=",
	"^kmsg\\.RIP=#RSP=",
	"^kmsg\\.RSP=#RIP=",
	"^kmsg\\.SA_mtpav.c:#MTVAP_port#is_busy",
	"^kmsg\\.serial#:#:PM:dpm_run_callback\\(\\):pnp_bus_resume_returns",
	"^kmsg\\.SS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.Sysenter_RSP=#CS:RIP=",
	"^kmsg\\.telclk_interrupt=#non-mcpbl0010_hw",
	"^kmsg\\.test_bitmap:bitmap_print_to_pagebuf:input_is",
	"^kmsg\\.test_bitmap:parselist",
	"^kmsg\\.test_stackinit:failures",
	"^kmsg\\.timestamp:.*",
	"^kmsg\\.TPR_Threshold=",
	"^kmsg\\.TR:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.TSC_Offset=",
	"^kmsg\\.usb_hcd_irq",
	"^kmsg\\.usb_usb#-port#:Cannot_enable.Maybe_the_USB_cable_is_bad\\?",
	"^kmsg\\.veth[0-9]*:Failed_to_cycle_device_veth",
	"^kmsg\\.Writes:Total:#Max/Min:#Fail",
	"^kvm-unit-tests-qemu\\.apic",
	"^kvm-unit-tests.*\\.pmu_pebs\\.fail",
	"^last_state\\..+\\.exit_code",
	"^last_state\\.exit_fail",
	"^last_state\\.initrd_broken",
	"^last_state\\.kvm_fail",
	"^last_state\\.microcode_is_not_matched",
	"^last_state\\.OOM",
	"^last_state\\.post_run",
	"^last_state\\.soft_timeout",
	"^last_state\\.wget_initrd",
	"^last_state\\.wget_initrd_fail",
	"^last_state\\.wget_kernel",
	"^last_state\\.wget_kernel_fail",
	"^leaking-addresses\\.dmesg.R",
	"^leaking-addresses\\.leaking_number",
	"^leaking-addresses\\.proc.*:0000000",
	"^leaking-addresses\\.proc.blacklist",
	"^leaking-addresses\\.proc.netlink",
	"^leaking-addresses\\.proc.vmallocinfo",
	"^leaking-addresses\\.result.fail",
	"^leaking-addresses\\.total_number",
	"^libhugetlbfs-test\\..+\\.killed_by_signal",
	"^lkvs\\..*\\.na",
	"^lock_stat\\.",
	"^ltp\\..*\\.broken",
	"^max_iostat\\.",
	"^meminfo\\.",
	"^mpstat\\.",
	"^numa-meminfo\\.",
	"^numa-numastat\\.",
	"^numa-vmstat\\.",
	"^pagetypeinfo\\.",
	"^perf-event-tests\\..*\\.unimplemented",
	"^perf-profile.",
	"^perf-stat\\.",
	"^pmeter\\.fail",
	"^proc-vmstat\\.",
	"^rcutorture\\.cpuhotplug-.*\\.rcu_hotplug",
	"^sched_debug\\.",
	"^slabinfo\\.",
	"^softirqs\\.",
	"^tcrypt\\.",
	"^time\\.",
	"^turbostat\\.",
	"^upgrade-trinity\\.fail",
	"^uptime\\.",
	"^vmstat\\.",
	"^xfstests\\.btrfs\\.303\\.fail",
	"^zoneinfo\\.",
	"\\{#:#\\}",	/* "{" opening no interval: literal in Ruby */
	"},at",
};

/* ... unless etc/stat-allowlist lists them, */
static const char *const stat_allowlist[] = {
	"^/dev/mapper/control: open failed: No such device",
	"^kmsg\\.sanitizer",
	"^stderr\\.BPF_MOV64_IMM\\(BPF_REG_0,#",
	"^stderr\\.disk_r(r|w)\\(\\):No_space_left_on_device",
	"^stderr\\.mkfs.xfs:pwrite_failed:Invalid_argument",
	"^stderr\\.modprobe:ERROR:could_not_insert'btrfs':Key_was_rejected_by_service",
	"^stderr\\.modprobe:ERROR:could_not_insert'tcrypt':Exec_format_error",
	"^stderr\\.mount_nfs_timeout",
	"^stderr\\.sync_disk_cp.*: cannot create /fs/shm/tmpb",
	"^stderr\\.umount:/tmp/vm-scalability-tmp:target_is_busy",
	"^stderr\\.xinit:giving_up",
	"^stress-ng\\..+\\.fail",
};

/* ... or etc/report-allowlist. */
static const char *const report_allowlist[] = {
	"^boot-meminfo.",
	"^boot-slabinfo.",
	"^boot-time.",
	"^cpuidle.",
	"^iostat.",
	"^lock_stat.",
	"^meminfo.",
	"^mpstat.",
	"^numa-meminfo.",
	"^numa-numastat.",
	"^numa-vmstat.",
	"^perf-profile.",
	"^perf-stat.",
	"^proc-vmstat.",
	"^sched_debug.",
	"^time.",
	"^turbostat.",
	"^uptime.",
	"^vmstat.",
};

/*
 * Performance metrics, for which a 1% change of the middles can count:
 * names that begin with one of etc/perf-metrics-prefixes, ...
 */
static const char *const perf_metric_prefixes[] = {
	"boot-meminfo.DirectMap1G",
	"boot-meminfo.DirectMap2M",
	"boot-meminfo.DirectMap4k",
	"boot-meminfo.KernelStack",
	"boot-meminfo.MemFree",
	"boot-meminfo.MemTotal",
	"boot-meminfo.PageTables",
	"boot-meminfo.Slab",
	"boot-meminfo.VmallocUsed",
	"boot-memory.bootmem",
	"boot-memory.code",
	"boot-memory.init",
	"boot-slabinfo.",
	"boot-time.",
	"energy.",
	"interrupts.CAL:Function_call_interrupts",
	"iostat.",
	"perf-c2c.HITM.total",
	"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	"perf-stat.",
	"pmeter.",
	"proc-vmstat.",
	"turbostat.%Busy",
	"turbostat.Bzy_MHz",
	"turbostat.C1%",
	"turbostat.C1E%",
	"turbostat.CorWatt",
	"turbostat.Pk%pc10",
	"turbostat.Pkg%pc2",
	"turbostat.Pkg%pc3",
	"turbostat.Pkg%pc6",
	"turbostat.Pkg%pc7",
	"turbostat.Pkg%pc8",
	"turbostat.Pkg%pc9",
	"turbostat.PkgTmp",
	"turbostat.PkgWatt",
	"turbostat.POLL%",
	"turbostat.RAMWatt",
	"turbostat.SYS%LPI",
	"vmstat.cpu.",
	"vmstat.io.",
	"vmstat.swap.",
	"vmstat.system.",
};

/* ... or match etc/perf-metrics-patterns, ... */
static const char *const perf_metric_patterns[] = {
	"^(.*\\.)?time..*",
	"^lock_stat..*..contentions",
};

/*
 * ... or are results of a test that is not a functional test
 * (etc/linux-test-cases) or a tool (etc/other-test-cases).
 */
static const char *const not_performance_tests[] = {
	"analyze-suspend", "avocado", "blktests", "boot", "cat",
	"cgroup2-test", "cpu-hotplug", "ext4-frag", "ftq", "ftrace-onoff",
	"fwq", "fxmark", "galileo", "hwsim", "idle-inject", "irda-kernel",
	"kernel-builtin", "kselftests", "kselftests-bpf", "kselftests-rust",
	"ktools", "kvm-kernel-boot-test", "kvm-unit-tests",
	"kvm-unit-tests-qemu", "leaking-addresses", "libhugetlbfs-test",
	"lkvs", "locktorture", "ltp", "mce-log", "mce-test",
	"mdadm-selftests", "ndctl", "nfs-test", "nvml", "ocfs2test",
	"otc-ddt", "packetdrill", "perf-sanity-tests", "perf-stat-tests",
	"perf-test", "piglit", "pm-qa", "qa", "qemu", "rcuscale",
	"rcutorture", "rdma-pyverb", "reboot", "rocksdb", "suspend",
	"suspend-stress", "test-bpf", "trinity", "update-ucode", "v4l2",
	"vmem", "xfstests",
	"borrow", "btest", "bust-shm-exit", "convert-lkpdoc-to-html",
	"convert-lkpdoc-to-html-css", "debug", "deploy-clang", "dpdk-dts",
	"health-stats", "hwinfo", "ipmi-setup", "kmemleak-test", "kunit",
	"lkp-install-run", "lkp-qemu", "lkp-services", "lkp-src", "makepkg",
	"makepkg-deps", "pack", "pack-deps", "rsync-rootfs",
	"upgrade-trinity",
};

/*
 * etc/perf-metrics-threshold.yaml, in its order: the whole name matches
 * pattern; a change is reasonable when the larger maximum is at least
 * threshold and, for a whole threshold, the middles are at least half of
 * it apart.
 */
static const struct {
	const char *pattern;
	double threshold;
	bool whole;
} thresholds[] = {
	{ ".*.time.elapsed_time.*", 10, true },
	{ ".*.time.file_system_inputs", 10000, true },
	{ ".*.time.file_system_outputs", 10000, true },
	{ ".*.time.involuntary_context_switches", 1000, true },
	{ ".*.time.major_page_faults", 1000, true },
	{ ".*.time.minor_page_faults", 1000, true },
	{ ".*.time.socket_messages_received", 10000, true },
	{ ".*.time.socket_messages_sent", 10000, true },
	{ ".*.time.swaps", 1000, true },
	{ ".*.time.system_time", 10, true },
	{ ".*.time.user_time", 10, true },
	{ ".*.time.voluntary_context_switches", 1000, true },
	{ ".*vmstat.*nr_.*", 100, true },
	{ "dd.kill_time", 10, true },
	{ "dd.startup_time", 10, true },
	{ "interrupts.*", 100, true },
	{ "iostat.*.avgrq-sz", 200, true },
	{ "iostat.*.await", 50, true },
	{ "iostat.*.util", 10, true },
	{ "iostat.*.[rw]/s", 50, true },
	{ "iostat.*.[rw]kB/s", 100, true },
	{ "iostat.*.[rw]_await", 50, true },
	{ "perf-c2c.HITM.total", 3000, true },
	{ "perf-profile.*", 1, true },
	{ "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 2.00, false },
	{ "proc-vmstat.allocstall", 100, true },
	{ "proc-vmstat.compact_fail", 100, true },
	{ "proc-vmstat.compact_stall", 100, true },
	{ "proc-vmstat.htlb_buddy_alloc_fail", 100, true },
	{ "proc-vmstat.kswapd_high_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.kswapd_low_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", 100, true },
	{ "proc-vmstat.nr_vmscan_write", 100, true },
	{ "proc-vmstat.pgmigrate_fail", 100, true },
	{ "sysbench-fileio.latency_95th_ms", 10, true },
	{ "vmstat.cpu.id", 10, true },
	{ "vmstat.cpu.st", 10, true },
	{ "vmstat.cpu.sy", 50, true },
	{ "vmstat.cpu.us", 10, true },
	{ "vmstat.cpu.wa", 10, true },
	{ "vmstat.io.bi", 100, true },
	{ "vmstat.io.bo", 100, true },
	{ "vmstat.system.cs", 100, true },
	{ "vmstat.system.in", 100, true },
	{ "xfstests.*.seconds", 10, true },
};

/*
 * A list of patterns as one POSIX extended regular expression, each
 * pattern an alternative between before and after; compiled on first use
 * and kept (the patterns are constant).
 */
struct pattern_set {
	const char *const *patterns;
	size_t n;
	const char *before, *after;
	regex_t re;
};

#define PATTERN_SET(list, before, after) \
	{ list, ARRAY_SIZE(list), before, after, { 0 } }

static struct pattern_set denylist_set = PATTERN_SET(stat_denylist, "(", ")");
static struct pattern_set allowlist_set =
	PATTERN_SET(stat_allowlist, "(", ")");
static struct pattern_set report_set = PATTERN_SET(report_allowlist, "(", ")");
static struct pattern_set perf_set = PATTERN_SET(perf_metric_patterns, "(", ")");
static regex_t threshold_res[ARRAY_SIZE(thresholds)];

static void compile_pattern(regex_t *re, const char *pattern)
{
	if (regcomp(re, pattern, REG_EXTENDED | REG_NOSUB))
		xdie("BUG: lkp-tests pattern \"%s\" does not compile", pattern);
}

static void compile_set(struct pattern_set *set)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < set->n; i++)
		strbuf_addf(&sb, "%s%s%s%s", i ? "|" : "", set->before,
			    set->patterns[i], set->after);
	compile_pattern(&set->re, sb.buf);
	strbuf_release(&sb);
}

static void compile_all(void)
{
	compile_set(&denylist_set);
	compile_set(&allowlist_set);
	compile_set(&report_set);
	compile_set(&perf_set);
	for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++) {
		char *p = xasprintf("^(%s)$", thresholds[i].pattern);

		compile_pattern(&threshold_res[i], p);
		free(p);
	}
}

/*
 * The patterns are compiled once, by whichever thread needs them first:
 * the comparer decides variants on several threads.
 */
static void compile_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, compile_all);
}

static bool set_matches(struct pattern_set *set, const char *name)
{
	compile_once();
	return !regexec(&set->re, name, 0, NULL, 0);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Whether word occurs in s after its first character (".+word"). */
static const char *after_first(const char *s, const char *word)
{
	return *s ? strstr(s + 1, word) : NULL;
}

/* ".+\.(error|warn|fail)[^_]*$": a failing word, no '_' after it. */
static bool failing_word(const char *name)
{
	static const char *const words[] = { ".error", ".warn", ".fail" };

	for (const char *p = name + 1; *name && (p = strchr(p, '.')); p++)
		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			if (starts_with(p, words[i]) &&
			    !strchr(p + strlen(words[i]), '_'))
				return true;
	return false;
}

/*
 * lkp-tests' failure stats, after its etc/failure and etc/pass, whose
 * patterns match from the name's start (in the comments), unless the name
 * holds ".time.", ".timestamp:" or ".bootstage:".  Plain string tests: a
 * comparer asks this of every metric.
 */
bool lkp_failure_stat(const char *name)
{
	static const char *const not_failure_parts[] = {
		".time.", ".timestamp:", ".bootstage:",
	};
	size_t len = strlen(name);
	const char *p;

	for (size_t i = 0; i < ARRAY_SIZE(not_failure_parts); i++)
		if (strstr(name, not_failure_parts[i]))
			return false;
	/* dmesg.*  kmsg.*  last_state.*  stderr.* */
	if (starts_with(name, "dmesg") || starts_with(name, "kmsg") ||
	    starts_with(name, "last_state") || starts_with(name, "stderr"))
		return true;
	/* .+killed_by.*  .+\.pass$  .+\.(error|warn|fail)[^_]*$ */
	if (after_first(name, "killed_by") ||
	    (len > 5 && !strcmp(name + len - 5, ".pass")) || failing_word(name))
		return true;
	/* kmemleak\..+unreferenced_object\..+ */
	if (starts_with(name, "kmemleak.") &&
	    (p = after_first(name + 9, "unreferenced_object.")) &&
	    p[strlen("unreferenced_object.")])
		return true;
	/* locktoture\..+lock_hotplug  rcutoture\..+rcu_hotplug */
	if ((starts_with(name, "locktoture.") &&
	     after_first(name + 11, "lock_hotplug")) ||
	    (starts_with(name, "rcutoture.") &&
	     after_first(name + 10, "rcu_hotplug")))
		return true;
	/* xfstests\..+fail$ */
	return starts_with(name, "xfstests.") && len >= 14 &&
	       !strcmp(name + len - 4, "fail");
}

bool lkp_decide_over_all_runs(const char *name)
{
	return starts_with(name, "dmesg.") || starts_with(name, "last_state.") ||
	       starts_with(name, "stderr.");
}

static bool compared_stat(const char *name)
{
	return set_matches(&allowlist_set, name) ||
	       !set_matches(&denylist_set, name) ||
	       set_matches(&report_set, name);
}

/* The part of name before its first dot. */
static size_t source_length(const char *name)
{
	return strcspn(name, ".");
}

static bool performance_metric(const char *name, bool key)
{
	size_t len = source_length(name);

	for (size_t i = 0; i < ARRAY_SIZE(perf_metric_prefixes); i++)
		if (!strncmp(name, perf_metric_prefixes[i],
			     strlen(perf_metric_prefixes[i])))
			return true;
	if (set_matches(&perf_set, name))
		return true;
	if (!key)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(not_performance_tests); i++)
		if (strlen(not_performance_tests[i]) == len &&
		    !strncmp(name, not_performance_tests[i], len))
			return false;
	return true;
}

/* The first threshold whose pattern matches all of name, or -1. */
static int threshold_index(const char *name)
{
	compile_once();
	for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++)
		if (!regexec(&threshold_res[i], name, 0, NULL, 0))
			return (int)i;
	return -1;
}

/* Step 5: delta, the middles apart; max, the larger maximum. */
static bool reasonable_change(const char *name, double delta, double max)
{
	int t = threshold_index(name);

	if (t >= 0)
		return !(max < thresholds[t].threshold) &&
		       !(thresholds[t].whole &&
			 delta < thresholds[t].threshold / 2);
	if (starts_with(name, "iostat"))
		return max > 1;
	if (starts_with(name, "pagetypeinfo") || starts_with(name, "buddyinfo") ||
	    starts_with(name, "slabinfo"))
		return delta > 100;
	if (starts_with(name, "proc-vmstat") || strstr(name, "meminfo"))
		return max > 1000;
	if (starts_with(name, "lock_stat"))
		return delta > (strstr(name, "time") ? 1000 : 10000);
	if (starts_with(name, "interrupts") || starts_with(name, "softirqs"))
		return max > 10000;
	return true;
}

/* Step 2 for failure stats: a .fail needs its .pass, and back. */
static bool has_pass_fail_pair(const char *name,
			       const struct lkp_side *base)
{
	static const char *const failing[] = { "error", "warn", "fail" };
	const char *last = strrchr(name, '.');
	size_t stem = last ? (size_t)(last - name) : 0;
	bool pair = false;

	if (starts_with(name, "dmesg.") || starts_with(name, "kmsg.") ||
	    starts_with(name, "last_state.") || starts_with(name, "stderr.") ||
	    !last)
		return true;
	if (!strcmp(last, ".pass")) {
		for (size_t i = 0; i < ARRAY_SIZE(failing) && !pair; i++) {
			char *other = xasprintf("%.*s.%s", (int)stem, name,
						failing[i]);

			pair = base->has(base->ctx, other);
			free(other);
		}
		return pair;
	}
	for (size_t i = 0; i < ARRAY_SIZE(failing); i++)
		if (!strcmp(last + 1, failing[i])) {
			char *pass = xasprintf("%.*s.pass", (int)stem, name);

			pair = base->has(base->ctx, pass);
			free(pass);
			return pair;
		}
	return true;
}

/*
 * Step 3's summary of one side: its runs, absent ones as 0 (lkp-tests
 * pads a matrix row that is short), trimmed.
 */
static bool side_summary(const struct lkp_side *side, size_t max_margin,
			 struct lkp_summary *out)
{
	size_t n = side->samples ? side->n : 0;
	size_t runs = side->runs > n ? side->runs : n;
	double *x = xcalloc(runs ? runs : 1, sizeof(*x));

	if (n)
		memcpy(x, side->samples, n * sizeof(*x));
	lkp_summarize(x, runs, max_margin, out);
	free(x);
	return out->n > 0;
}

/* Step 3: changed at all? */
static bool lkp_apart(const char *name, bool failure,
		      const struct lkp_side *other,
		      const struct lkp_summary *b, const struct lkp_summary *o)
{
	/*
	 * lkp-tests compares perf-profile.* by a threshold of 5 when the new
	 * side's middle is an Integer: here when the stat is absent there,
	 * or written as integers only.
	 */
	if (starts_with(name, "perf-profile.") &&
	    (!other->samples || other->integers))
		return o->middle > 5 || b->middle > 5;
	if (failure)
		return o->max != b->max;
	return lkp_intervals_apart(b, o);
}

enum lkp_decision lkp_decide(const char *name, bool key,
			     const struct lkp_side *base,
			     const struct lkp_side *other)
{
	bool failure = lkp_failure_stat(name);
	struct lkp_summary b, o;
	const struct lkp_summary *high, *low;
	double ratio, delta, max;
	size_t margin = failure ? 0 : 3;

	if (!compared_stat(name))
		return LKP_NOT_COMPARED;
	if (failure && !has_pass_fail_pair(name, base))
		return LKP_NO_PASS_FAIL_PAIR;
	if (!failure && base->runs < 3 && other->runs < 3)
		return LKP_FEW_RUNS;
	if (!base->samples && !failure &&
	    !((starts_with(name, "lock_stat.") ||
	       starts_with(name, "perf-profile.")) && base->source_present))
		return LKP_NO_BASE;
	if (!side_summary(base, margin, &b))
		return LKP_SAME;
	if (b.runs <= 3 && margin > 1)
		margin = 1;
	if (!side_summary(other, margin, &o))
		return LKP_SAME;
	if (!lkp_apart(name, failure, other, &b, &o))
		return failure ? LKP_SAME_MAXIMA : LKP_SAME;
	high = o.middle > b.middle ? &o : &b;
	low = high == &o ? &b : &o;
	delta = high->middle - low->middle;
	ratio = low->middle > 0 ? high->middle / low->middle : LKP_MAX_RATIO;
	ratio = fmin(ratio, LKP_MAX_RATIO);
	max = fmax(b.max, o.max);
	if (starts_with(name, "perf-profile."))
		return LKP_CHANGED;
	if (!(ratio > 1.01))
		return LKP_RATIO_1_PERCENT;
	if (!(ratio > 1.05) && !performance_metric(name, key))
		return LKP_RATIO_5_PERCENT;
	if (!reasonable_change(name, delta, max))
		return LKP_UNREASONABLE;
	return LKP_CHANGED;
}

const char *lkp_decision_rule(enum lkp_decision decision)
{
	static const char *const rules[] = {
		[LKP_CHANGED] = "changed (lkp-tests)",
		[LKP_NOT_COMPARED] =
			"not compared: on lkp-tests' stat denylist (lkp-tests)",
		[LKP_FEW_RUNS] =
			"fewer than 3 runs on both sides: not compared (lkp-tests)",
		[LKP_NO_BASE] = "absent in the base: not compared (lkp-tests)",
		[LKP_NO_PASS_FAIL_PAIR] =
			"no .pass/.fail counterpart in the base: not compared (lkp-tests)",
		[LKP_SAME] =
			"not significant: the runs' intervals overlap (lkp-tests)",
		[LKP_SAME_MAXIMA] =
			"not changed: the same largest count in a run (lkp-tests)",
		[LKP_RATIO_1_PERCENT] =
			"small: the middle runs not more than 1% apart (lkp-tests)",
		[LKP_RATIO_5_PERCENT] =
			"small: not a performance metric, the middle runs not more than 5% apart (lkp-tests)",
		[LKP_UNREASONABLE] =
			"small: below lkp-tests' threshold for this metric (lkp-tests)",
		[LKP_NO_COMPLETE_RUN] =
			"not compared: a side has no complete run, and lkp-tests compares this stat over complete runs only (lkp-tests)",
	};

	return rules[decision];
}
