// Package validate checks the Kubernetes manifests in deploy/ with Kubernetes' own API types:
// every object is decoded strictly (an unknown or misspelt field, or a value of the wrong
// type, is an error, as the API server's strict field validation makes it), and the
// references between its parts are followed. It is a module of its own so that the
// project does not depend on k8s.io/api:
//
//	cd deploy/validate && go test
//
// kubectl --dry-run=client needs an API server for its schemas, and kubeconform downloads
// its schemas at run time; neither works without a network, this does.
package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// docs splits a YAML file into its documents.
func docs(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, d := range bytes.Split(b, []byte("\n---\n")) {
		if len(bytes.TrimSpace(d)) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// decode decodes every document of the files strictly into its Kubernetes type.
func decode(t *testing.T, files ...string) (ds []*appsv1.DaemonSet, other []any) {
	t.Helper()
	for _, f := range files {
		for i, d := range docs(t, f) {
			var tm typeMeta
			if err := yaml.Unmarshal(d, &tm); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			var obj any
			switch tm.APIVersion + " " + tm.Kind {
			case "apps/v1 DaemonSet":
				obj = &appsv1.DaemonSet{}
			case "v1 ServiceAccount":
				obj = &corev1.ServiceAccount{}
			case "rbac.authorization.k8s.io/v1 ClusterRole":
				obj = &rbacv1.ClusterRole{}
			case "rbac.authorization.k8s.io/v1 ClusterRoleBinding":
				obj = &rbacv1.ClusterRoleBinding{}
			default:
				t.Fatalf("%s #%d: %s %s: no type here to check it with", f, i, tm.APIVersion, tm.Kind)
			}
			// Kubernetes' own decoder: field names match case-sensitively (encoding/json
			// would take readOnlyRootFileSystem for readOnlyRootFilesystem), and unknown
			// or duplicate fields are reported as the API server's strict validation does.
			j, err := yaml.YAMLToJSON(d)
			if err != nil {
				t.Errorf("%s #%d: %v", f, i, err)
				continue
			}
			strict, err := kjson.UnmarshalStrict(j, obj, kjson.DisallowUnknownFields, kjson.DisallowDuplicateFields)
			if err != nil || len(strict) > 0 {
				t.Errorf("%s #%d (%s): %v %v", f, i, tm.Kind, err, strict)
				continue
			}
			if x, ok := obj.(*appsv1.DaemonSet); ok {
				ds = append(ds, x)
			} else {
				other = append(other, obj)
			}
		}
	}
	return ds, other
}

// checkDaemonSet follows what the API server would refuse or what would not run: the
// selector must match the template's labels, every mount must name a volume, every
// hostPath be absolute, every container have an image.
func checkDaemonSet(t *testing.T, d *appsv1.DaemonSet) {
	t.Helper()
	if d.Spec.Selector == nil || len(d.Spec.Selector.MatchLabels) == 0 {
		t.Errorf("%s: no selector", d.Name)
	}
	for k, v := range d.Spec.Selector.MatchLabels {
		if d.Spec.Template.Labels[k] != v {
			t.Errorf("%s: selector %s=%s does not match the template's labels %v", d.Name, k, v, d.Spec.Template.Labels)
		}
	}
	vols := map[string]corev1.Volume{}
	for _, v := range d.Spec.Template.Spec.Volumes {
		vols[v.Name] = v
		if v.HostPath != nil && !filepath.IsAbs(v.HostPath.Path) {
			t.Errorf("%s: volume %s: hostPath %q is not absolute", d.Name, v.Name, v.HostPath.Path)
		}
	}
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Image == "" {
			t.Errorf("%s/%s: no image", d.Name, c.Name)
		}
		for _, m := range c.VolumeMounts {
			if _, ok := vols[m.Name]; !ok {
				t.Errorf("%s/%s: mount %s names no volume", d.Name, c.Name, m.Name)
			}
		}
	}
}

func TestHeadroomDaemonSet(t *testing.T) {
	ds, _ := decode(t, "../kubernetes/daemonset.yaml")
	if len(ds) != 1 {
		t.Fatalf("%d DaemonSets", len(ds))
	}
	d := ds[0]
	checkDaemonSet(t, d)
	spec := d.Spec.Template.Spec
	if !spec.HostNetwork || spec.HostPID {
		t.Errorf("hostNetwork %v hostPID %v: want the host's network and not its PID namespace", spec.HostNetwork, spec.HostPID)
	}
	c := spec.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.Privileged != nil && *sc.Privileged || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.Capabilities == nil || len(sc.Capabilities.Add) > 0 || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		t.Errorf("container security context %+v: want unprivileged, no escalation, all capabilities dropped", sc)
	}
	for _, m := range c.VolumeMounts {
		if !m.ReadOnly {
			t.Errorf("mount %s is writable", m.MountPath)
		}
	}
	if !slices.Contains(c.Args, "--host-root=/host") {
		t.Errorf("args %v: the host's /proc and /sys are mounted under /host", c.Args)
	}
}

func TestNodeProblemDetector(t *testing.T) {
	ds, other := decode(t, "../node-problem-detector/daemonset.yaml", "../node-problem-detector/rbac.yaml")
	if len(ds) != 1 || len(other) != 3 {
		t.Fatalf("%d DaemonSets, %d other objects", len(ds), len(other))
	}
	d := ds[0]
	checkDaemonSet(t, d)
	// The configs NPD is told to read are the files the kustomization puts in the config
	// map mounted at /config.
	kust, err := os.ReadFile("../node-problem-detector/kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var k struct {
		ConfigMapGenerator []struct {
			Name  string   `json:"name"`
			Files []string `json:"files"`
		} `json:"configMapGenerator"`
	}
	if err := yaml.Unmarshal(kust, &k); err != nil || len(k.ConfigMapGenerator) != 1 {
		t.Fatalf("kustomization: %v", err)
	}
	gen := k.ConfigMapGenerator[0]
	var cmVolume string
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.ConfigMap != nil {
			cmVolume = v.Name
			if v.ConfigMap.Name != gen.Name {
				t.Errorf("volume %s mounts config map %q, the kustomization generates %q", v.Name, v.ConfigMap.Name, gen.Name)
			}
		}
	}
	c := d.Spec.Template.Spec.Containers[0]
	mounted := false
	for _, m := range c.VolumeMounts {
		mounted = mounted || (m.Name == cmVolume && m.MountPath == "/config")
	}
	if !mounted {
		t.Errorf("the config map is not mounted at /config")
	}
	for _, a := range c.Command {
		for _, flag := range []string{"--config.system-log-monitor=", "--config.custom-plugin-monitor="} {
			if v, ok := strings.CutPrefix(a, flag); ok {
				for _, p := range strings.Split(v, ",") {
					if !slices.Contains(gen.Files, strings.TrimPrefix(p, "/config/")) {
						t.Errorf("%s%s is not a file of the config map %v", flag, p, gen.Files)
					}
					if _, err := os.Stat(filepath.Join("../node-problem-detector", filepath.Base(p))); err != nil {
						t.Error(err)
					}
				}
			}
		}
	}
	// RBAC: the binding names the role and the service account the pods run as.
	var sa *corev1.ServiceAccount
	var role *rbacv1.ClusterRole
	var binding *rbacv1.ClusterRoleBinding
	for _, o := range other {
		switch x := o.(type) {
		case *corev1.ServiceAccount:
			sa = x
		case *rbacv1.ClusterRole:
			role = x
		case *rbacv1.ClusterRoleBinding:
			binding = x
		}
	}
	if sa == nil || role == nil || binding == nil {
		t.Fatal("want a ServiceAccount, a ClusterRole and a ClusterRoleBinding")
	}
	if d.Spec.Template.Spec.ServiceAccountName != sa.Name || sa.Namespace != d.Namespace {
		t.Errorf("pods run as %s/%s, the account is %s/%s", d.Namespace, d.Spec.Template.Spec.ServiceAccountName, sa.Namespace, sa.Name)
	}
	if binding.RoleRef.Name != role.Name || len(binding.Subjects) != 1 || binding.Subjects[0].Name != sa.Name || binding.Subjects[0].Namespace != sa.Namespace {
		t.Errorf("binding %+v does not bind %s to %s/%s", binding, role.Name, sa.Namespace, sa.Name)
	}
	for _, r := range role.Rules {
		for _, v := range r.Verbs {
			if v == "*" || v == "delete" {
				t.Errorf("role grants %s on %v", v, r.Resources)
			}
		}
	}
}
